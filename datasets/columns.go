package datasets

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
)

// Column returns the record's column called name as the concrete array type
// T (for example *array.String or *array.Int32), or an error if the column
// is missing or has another type.
func Column[T arrow.Array](rec arrow.Record, name string) (T, error) {
	var zero T
	idx := rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return zero, fmt.Errorf("datasets: record has %d columns named %q, want 1", len(idx), name)
	}
	col, ok := rec.Column(idx[0]).(T)
	if !ok {
		return zero, fmt.Errorf("datasets: column %q is %s, want %T", name, rec.Column(idx[0]).DataType(), zero)
	}
	return col, nil
}

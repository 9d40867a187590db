package datasets

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// validateRecord checks that every column's buffers are large enough for its
// length and that variable-length offsets are monotonic and in bounds. The
// Arrow reader does not check this, and a bad offset read from disk would
// make later value accesses panic far from the file that caused it.
func validateRecord(rec arrow.Record) error {
	for i, col := range rec.Columns() {
		if int64(col.Len()) != rec.NumRows() {
			return fmt.Errorf("column %q: %d values, record has %d rows", rec.ColumnName(i), col.Len(), rec.NumRows())
		}
		if err := validateData(col.Data()); err != nil {
			return fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
	}
	return nil
}

func validateData(d arrow.ArrayData) error {
	if d.Offset() < 0 || d.Len() < 0 {
		return fmt.Errorf("negative offset %d or length %d", d.Offset(), d.Len())
	}
	n := int64(d.Offset()) + int64(d.Len())
	bufs := d.Buffers()
	if len(bufs) > 0 && bufs[0] != nil && int64(bufs[0].Len())*8 < n {
		return fmt.Errorf("validity bitmap of %d bytes for %d values", bufs[0].Len(), n)
	}
	switch dt := d.DataType().(type) {
	case *arrow.StringType, *arrow.BinaryType:
		last, err := checkOffsets32(bufs, n)
		if err != nil {
			return err
		}
		return needBytes(bufs, 2, last, "value data")
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		last, err := checkOffsets64(bufs, n)
		if err != nil {
			return err
		}
		return needBytes(bufs, 2, last, "value data")
	case *arrow.ListType:
		last, err := checkOffsets32(bufs, n)
		if err != nil {
			return err
		}
		return validateChild(d, 0, last)
	case *arrow.LargeListType:
		last, err := checkOffsets64(bufs, n)
		if err != nil {
			return err
		}
		return validateChild(d, 0, last)
	case *arrow.FixedSizeListType:
		return validateChild(d, 0, n*int64(dt.Len()))
	case *arrow.StructType:
		for i := range dt.Fields() {
			if err := validateChild(d, i, n); err != nil {
				return err
			}
		}
		return nil
	case arrow.FixedWidthDataType:
		return needBytes(bufs, 1, (n*int64(dt.BitWidth())+7)/8, "values")
	}
	return nil // other types are not checked
}

// validateChild checks that child i exists, holds at least need values and
// is itself valid.
func validateChild(d arrow.ArrayData, i int, need int64) error {
	ch := d.Children()
	if i >= len(ch) || ch[i] == nil {
		return fmt.Errorf("missing child array %d", i)
	}
	if int64(ch[i].Len()) < need {
		return fmt.Errorf("child array %d has %d values, offsets need %d", i, ch[i].Len(), need)
	}
	if err := validateData(ch[i]); err != nil {
		return fmt.Errorf("child %d: %w", i, err)
	}
	return nil
}

func needBytes(bufs []*memory.Buffer, i int, need int64, what string) error {
	if need == 0 {
		return nil
	}
	if i >= len(bufs) || bufs[i] == nil {
		return fmt.Errorf("missing %s buffer (%d bytes needed)", what, need)
	}
	if int64(bufs[i].Len()) < need {
		return fmt.Errorf("%s buffer of %d bytes, %d needed", what, bufs[i].Len(), need)
	}
	return nil
}

// checkOffsets32 checks the int32 offsets of n values (n+1 offsets) and
// returns the last one.
func checkOffsets32(bufs []*memory.Buffer, n int64) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	if err := needBytes(bufs, 1, (n+1)*4, "offsets"); err != nil {
		return 0, err
	}
	b := bufs[1].Bytes()
	prev := int64(int32(binary.LittleEndian.Uint32(b)))
	if prev < 0 {
		return 0, fmt.Errorf("negative offset %d", prev)
	}
	for i := int64(1); i <= n; i++ {
		o := int64(int32(binary.LittleEndian.Uint32(b[4*i:])))
		if o < prev {
			return 0, fmt.Errorf("offset %d at %d is below the previous %d", o, i, prev)
		}
		prev = o
	}
	return prev, nil
}

// checkOffsets64 is checkOffsets32 for int64 offsets.
func checkOffsets64(bufs []*memory.Buffer, n int64) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	if err := needBytes(bufs, 1, (n+1)*8, "offsets"); err != nil {
		return 0, err
	}
	b := bufs[1].Bytes()
	prev := int64(binary.LittleEndian.Uint64(b))
	if prev < 0 {
		return 0, fmt.Errorf("negative offset %d", prev)
	}
	for i := int64(1); i <= n; i++ {
		o := int64(binary.LittleEndian.Uint64(b[8*i:]))
		if o < prev {
			return 0, fmt.Errorf("offset %d at %d is below the previous %d", o, i, prev)
		}
		prev = o
	}
	return prev, nil
}

package datasets_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"lifezero/datasets"
)

// A stage writes its output through a Writer and commits the manifest last;
// a later stage opens it (verifying sizes and checksums) and iterates it.
func ExampleWriter() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	schema := arrow.NewSchema([]arrow.Field{
		{Name: "problem", Type: arrow.BinaryTypes.String},
		{Name: "nodes", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	w, err := datasets.NewWriter(dir, schema, datasets.WriterOptions{MaxRowsPerFile: 2})
	if err != nil {
		log.Fatal(err)
	}
	defer w.Abort() // no-op after Commit
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for i, id := range []string{"001", "002", "003"} {
		b.Field(0).(*array.StringBuilder).Append(id)
		b.Field(1).(*array.Int64Builder).Append(int64(1000 * (i + 1)))
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	m, err := w.Commit(datasets.Manifest{Kind: "solve-results", SchemaVersion: 1, Stage: "solve", InputHash: "abc"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows", m.Rows, "files", len(m.Files))

	r, err := datasets.OpenKind(dir, "solve-results", 1)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		ids, err := datasets.Column[*array.String](rec, "problem")
		if err != nil {
			log.Fatal(err)
		}
		nodes, err := datasets.Column[*array.Int64](rec, "nodes")
		if err != nil {
			log.Fatal(err)
		}
		for i := range int(rec.NumRows()) {
			fmt.Println(ids.Value(i), nodes.Value(i))
		}
	}
	// Output:
	// rows 3 files 2
	// 001 1000
	// 002 2000
	// 003 3000
}

package features

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteList writes one line per feature, "id<TAB>group<TAB>name", under a
// header line. With describe, each pattern feature is followed by its
// diagram, indented.
func (e *Extractor) WriteList(w io.Writer, describe bool) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "id\tgroup\tname")
	for id, name := range e.names {
		g := e.groups[e.groupOf[id]]
		fmt.Fprintf(bw, "%d\t%s\t%s\n", id, g.Name, name)
		if describe && int32(id) >= e.pat3Base() {
			for _, line := range strings.Split(strings.TrimRight(e.Describe(int32(id)), "\n"), "\n") {
				fmt.Fprintf(bw, "\t\t  %s\n", line)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("features: writing the feature list: %w", err)
	}
	return nil
}

// WriteGroups writes one line per group: "first<TAB>count<TAB>group<TAB>
// meaning", under a header line.
func (e *Extractor) WriteGroups(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "first\tcount\tgroup\tmeaning")
	for _, g := range e.groups {
		fmt.Fprintf(bw, "%d\t%d\t%s\t%s\n", g.First, g.Count, g.Name, g.Doc)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("features: writing the feature groups: %w", err)
	}
	return nil
}

package sgf

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"lifezero/internal/atomicfile"
)

// Write writes the collection in SGF: one game tree per line, each
// variation after the first node of a branch on a line of its own. In
// values it escapes ']' and '\' only (':' is left as it is), so reading the
// output gives back the same trees. It fails on a tree it cannot write
// faithfully: a nil node, an identifier that is not upper-case letters A-Z,
// or a property without values.
func (c Collection) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for i, root := range c {
		if err := writeTree(bw, root); err != nil {
			return fmt.Errorf("sgf: write game %d: %w", i+1, err)
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sgf: write: %w", err)
	}
	return nil
}

// String returns the collection as Write writes it; an unwritable tree is
// written up to the fault.
func (c Collection) String() string {
	var b strings.Builder
	c.Write(&b)
	return b.String()
}

// WriteFile writes the collection to path atomically, through
// internal/atomicfile: to a temporary file in the same directory (mode 0644
// under the umask, like any written file), synced, renamed over path once
// complete, and the directory synced so the rename survives a crash. It
// streams into the temporary file rather than calling atomicfile.WriteFile,
// as a collection of game records may be large.
func (c Collection) WriteFile(path string) (err error) {
	tmp, err := atomicfile.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("sgf: write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := c.Write(tmp); err != nil {
		return fmt.Errorf("%w (file %s)", err, path)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sgf: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("sgf: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("sgf: write %s: %w", path, err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("sgf: write %s: %w", path, err)
	}
	return nil
}

// writeTree writes "(" sequence variations ")" for the tree under root. An
// explicit stack keeps deep trees off the Go stack; a nil entry on it stands
// for a ')' still to write.
func writeTree(w *bufio.Writer, root *Node) error {
	if root == nil {
		return fmt.Errorf("nil root node")
	}
	stack := []*Node{root}
	count := 0 // nodes written, to say where a fault is
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			w.WriteByte(')')
			continue
		}
		if n != root {
			w.WriteByte('\n')
		}
		w.WriteByte('(')
		for {
			count++
			if err := writeNode(w, n); err != nil {
				return fmt.Errorf("node %d (in file order): %w", count, err)
			}
			if len(n.Children) != 1 {
				break
			}
			if n = n.Children[0]; n == nil {
				return fmt.Errorf("node %d (in file order): nil child", count)
			}
		}
		stack = append(stack, nil)
		for i := len(n.Children) - 1; i >= 0; i-- {
			if n.Children[i] == nil {
				return fmt.Errorf("node %d (in file order): nil child", count)
			}
			stack = append(stack, n.Children[i])
		}
	}
	return nil
}

func writeNode(w *bufio.Writer, n *Node) error {
	w.WriteByte(';')
	for _, p := range n.Properties {
		if !validID(p.ID) {
			return fmt.Errorf("property identifier %q is not upper-case letters A-Z", p.ID)
		}
		if len(p.Values) == 0 {
			return fmt.Errorf("property %q has no value (write an empty value for [])", p.ID)
		}
		w.WriteString(p.ID)
		for _, v := range p.Values {
			w.WriteByte('[')
			writeEscaped(w, v)
			w.WriteByte(']')
		}
	}
	return nil
}

// writeEscaped writes v with '\' before every ']' and '\'.
func writeEscaped(w *bufio.Writer, v string) {
	for {
		i := strings.IndexAny(v, `]\`)
		if i < 0 {
			w.WriteString(v)
			return
		}
		w.WriteString(v[:i])
		w.WriteByte('\\')
		w.WriteByte(v[i])
		v = v[i+1:]
	}
}

func validID(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 'A' || id[i] > 'Z' {
			return false
		}
	}
	return true
}

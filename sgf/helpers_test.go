package sgf

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lifezero/internal/testdata"
)

// prop and node build expected trees by hand.
func prop(id string, values ...string) Property { return Property{ID: id, Values: values} }

func node(props ...Property) *Node { return &Node{Properties: props} }

// chain links nodes into a main line and returns the first; the last may
// already have children.
func chain(nodes ...*Node) *Node {
	for i := len(nodes) - 2; i >= 0; i-- {
		nodes[i].Children = append(nodes[i].Children, nodes[i+1])
	}
	return nodes[0]
}

// branch gives n the children and returns it.
func branch(n *Node, kids ...*Node) *Node {
	n.Children = append(n.Children, kids...)
	return n
}

// diffCollections says where two collections first differ, or "" if they are
// equal. nil and empty slices count as equal. It walks iteratively, so long
// or deep trees cannot exhaust the stack.
func diffCollections(a, b Collection) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d games, want %d", len(a), len(b))
	}
	for g := range a {
		if d := diffTrees(a[g], b[g]); d != "" {
			return fmt.Sprintf("game %d: %s", g+1, d)
		}
	}
	return ""
}

func diffTrees(a, b *Node) string {
	type pair struct {
		a, b *Node
		path *treePath
	}
	stack := []pair{{a, b, nil}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if (p.a == nil) != (p.b == nil) {
			return fmt.Sprintf("%s: nil %v, want nil %v", p.path, p.a == nil, p.b == nil)
		}
		if p.a == nil {
			continue
		}
		if d := diffProperties(p.a.Properties, p.b.Properties); d != "" {
			return p.path.String() + ": " + d
		}
		if len(p.a.Children) != len(p.b.Children) {
			return fmt.Sprintf("%s: %d children, want %d", p.path, len(p.a.Children), len(p.b.Children))
		}
		for i := range p.a.Children {
			stack = append(stack, pair{p.a.Children[i], p.b.Children[i], &treePath{p.path, i}})
		}
	}
	return ""
}

// treePath is the child indices from the root to a node, built as a linked
// list so that a deep walk does not copy paths; it is rendered only when
// reporting a difference.
type treePath struct {
	parent *treePath
	child  int
}

func (p *treePath) String() string {
	var idx []string
	for ; p != nil; p = p.parent {
		idx = append(idx, fmt.Sprint(p.child))
	}
	slices.Reverse(idx)
	return "root/" + strings.Join(idx, "/")
}

func diffProperties(a, b []Property) string {
	if len(a) != len(b) {
		return fmt.Sprintf("properties %v, want %v", a, b)
	}
	for i := range a {
		if a[i].ID != b[i].ID || len(a[i].Values) != len(b[i].Values) {
			return fmt.Sprintf("property %d = %q, want %q", i, a[i], b[i])
		}
		for j := range a[i].Values {
			if a[i].Values[j] != b[i].Values[j] {
				return fmt.Sprintf("property %s value %d = %q, want %q", a[i].ID, j, a[i].Values[j], b[i].Values[j])
			}
		}
	}
	return ""
}

// roundTrip writes c, parses the text back and checks that the tree is the
// same and that writing it again gives the same text.
func roundTrip(t *testing.T, name string, c Collection) {
	t.Helper()
	text := c.String()
	back, err := ParseString(text)
	if err != nil {
		t.Fatalf("%s: reparse of written text: %v", name, err)
	}
	if d := diffCollections(back, c); d != "" {
		t.Fatalf("%s: round trip changed the tree: %s", name, d)
	}
	if again := back.String(); again != text {
		t.Fatalf("%s: second write differs from the first", name)
	}
}

// dataDir returns ../shared/data beside the repository root, or skips.
func dataDir(t testing.TB) string { return testdata.Path(t) }

package sgf

// Property is one SGF property of a node: an identifier of upper-case
// letters and one or more values, unescaped.
type Property struct {
	ID     string
	Values []string
}

// Node is one node of a game tree. Properties are in file order. Children
// are the variations that follow the node; Children[0] continues the main
// line.
type Node struct {
	Properties []Property
	Children   []*Node
}

// Collection is the content of an SGF file: one root node per game tree.
type Collection []*Node

// Get returns the first value of the first property with the given id.
func (n *Node) Get(id string) (string, bool) {
	for _, p := range n.Properties {
		if p.ID == id && len(p.Values) > 0 {
			return p.Values[0], true
		}
	}
	return "", false
}

// GetAll returns every value of every property with the given id, in order
// (FF[4] forbids repeating a property in a node, but old files do it). The
// slice is a copy.
func (n *Node) GetAll(id string) []string {
	var out []string
	for _, p := range n.Properties {
		if p.ID == id {
			out = append(out, p.Values...)
		}
	}
	return out
}

// Set gives the property id exactly the given values: it replaces the values
// of the first property with that id, removes any later repeat of it, or
// appends a new property. With no values the property gets one empty value,
// as in B[] or KO[].
func (n *Node) Set(id string, values ...string) {
	values = ownValues(values)
	for i := range n.Properties {
		if n.Properties[i].ID == id {
			n.Properties[i].Values = values
			n.removeFrom(id, i+1)
			return
		}
	}
	n.Properties = append(n.Properties, Property{ID: id, Values: values})
}

// Add appends values to the first property with the given id, or appends a
// new property. With no values it adds one empty value.
func (n *Node) Add(id string, values ...string) {
	values = ownValues(values)
	for i := range n.Properties {
		if n.Properties[i].ID == id {
			p := &n.Properties[i]
			// A full slice expression so that a parsed node's shared backing
			// array is never written through.
			p.Values = append(p.Values[:len(p.Values):len(p.Values)], values...)
			return
		}
	}
	n.Properties = append(n.Properties, Property{ID: id, Values: values})
}

// Remove deletes every property with the given id and reports whether there
// was one.
func (n *Node) Remove(id string) bool {
	before := len(n.Properties)
	n.removeFrom(id, 0)
	return len(n.Properties) != before
}

// removeFrom deletes the properties with the given id at index from or later.
func (n *Node) removeFrom(id string, from int) {
	kept := n.Properties[:from:from]
	changed := false
	for _, p := range n.Properties[from:] {
		if p.ID == id {
			changed = true
			continue
		}
		kept = append(kept, p)
	}
	if changed {
		n.Properties = kept
	}
}

// MainLine returns the node and its first-child descendants, in order.
func (n *Node) MainLine() []*Node {
	var line []*Node
	for ; n != nil; n = firstChild(n) {
		line = append(line, n)
	}
	return line
}

func firstChild(n *Node) *Node {
	if len(n.Children) == 0 {
		return nil
	}
	return n.Children[0]
}

// ownValues copies the caller's values so that later changes to the
// caller's slice do not reach the node; no values means one empty value.
func ownValues(values []string) []string {
	if len(values) == 0 {
		return []string{""}
	}
	return append([]string(nil), values...)
}

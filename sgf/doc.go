// Package sgf reads and writes game records in the Smart Game Format, FF[4]
// (https://www.red-bean.com/sgf/). A file holds a Collection of game trees;
// each tree is a *Node whose Children are its variations, the first child
// being the main line. Every property is kept, in file order, with its values
// unescaped: a backslash makes the next character literal and a backslash
// before a line break (a soft line break) is removed. No other
// interpretation is done here — values are not typed, whitespace inside
// values is kept as it is, and the package knows no Go rules — so that a
// read followed by a write gives back the same tree. Old FF[1]-FF[3] files
// that put lower-case letters in property identifiers (AddBlack) are read by
// keeping only the upper-case letters (AB). Point values ("pd", "" or "tt" for
// a pass, "aa:cc" rectangles in point lists) are decoded by ParsePoint and
// ExpandPointList. Syntax errors are *SyntaxError values that give the file
// (with ParseFile), line, column and what was expected.
//
// The parser is a byte-level scanner over the whole input. Values without
// escapes share the memory of the parsed text instead of being copied, so a
// tree keeps its source text alive; a move node costs about 112 bytes on top
// (a 600 KB month of tom9d games becomes about 11 MB of tree), so ingest
// large archives file by file rather than all at once.
package sgf

// Package game implements the rules of Go for lifezero: boards from 5x5 to
// 19x19 with blocks, liberties, captures and suicide; simple ko and
// positional superko chosen per colour; Zobrist hashing of the position, the
// side to move and the ko state; the eight board symmetries; Benson's
// unconditional life (UCA) with its vital regions; and life-and-death
// problems (goals, crucial stones, allowed region) loaded from the problem
// files' JSON or SGF.
//
// Points are indices into a padded one-dimensional board (a border row above
// and below, one shared border column), so the four neighbours of any on-board
// point are p-1, p+1, p-stride and p+stride with no bounds checks. Use
// (*Board).Point and (*Board).XY to convert from and to coordinates.
package game

package datasets

import "github.com/apache/arrow/go/v15/arrow"

// This file declares the Arrow schema of every dataset, one function a
// dataset, so that a reader of one package and the writer of another agree
// on one definition and a change of columns is seen in one place. A
// dataset's kind and schema version stay with the package that writes it
// (GamesKind, MoveCandsKind here; selfplay.SamplesKind, train.NetworkKind,
// evaluate.SolveResultsKind, ...); changing a schema means bumping that
// version. Each writer's output is checked against its schema through a
// real file in schemas_test.go.

// GamesSchema is the schema of a games dataset (GamesKind, version 1): one
// row per game record, the fields of Game.
func GamesSchema() *arrow.Schema {
	str := arrow.BinaryTypes.String
	return arrow.NewSchema([]arrow.Field{
		{Name: "game_id", Type: str},
		{Name: "source", Type: str},
		{Name: "date", Type: str},
		{Name: "black", Type: str},
		{Name: "white", Type: str},
		{Name: "black_rank", Type: str},
		{Name: "white_rank", Type: str},
		{Name: "komi", Type: arrow.PrimitiveTypes.Float64},
		{Name: "result", Type: str},
		{Name: "board_size", Type: arrow.PrimitiveTypes.Int32},
		{Name: "handicap", Type: arrow.PrimitiveTypes.Int32},
		{Name: "moves", Type: str},
		{Name: "num_moves", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
}

// MoveCandsSchema is the schema of a movecands dataset (MoveCandsKind,
// version 1): one row per position, the fields of MoveCands.
func MoveCandsSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "game_id", Type: arrow.BinaryTypes.String},
		{Name: "date", Type: arrow.BinaryTypes.String},
		{Name: "move_number", Type: arrow.PrimitiveTypes.Int32},
		{Name: "board_size", Type: arrow.PrimitiveTypes.Int8},
		{Name: "to_move", Type: arrow.PrimitiveTypes.Int8},
		{Name: "played", Type: arrow.PrimitiveTypes.Int32},
		{Name: "moves", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16)},
		{Name: "features", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32))},
	}, nil)
}

// SelfplaySamplesSchema is the schema of the self-play samples of a
// network with inputSize input values, policySize policy outputs (N²+1)
// and d FTL d-win heads (package selfplay, kind "selfplay-samples",
// version 1): one row per position, its input planes, the normalised visit
// counts, the plain result for the side to move (±1) and the d-win targets
// with their known-mask; to_move is 1 Black, 2 White.
func SelfplaySamplesSchema(inputSize, policySize, d int) *arrow.Schema {
	list := func(n int) arrow.DataType { return arrow.FixedSizeListOf(int32(n), arrow.PrimitiveTypes.Float32) }
	return arrow.NewSchema([]arrow.Field{
		{Name: "game", Type: arrow.PrimitiveTypes.Int32},
		{Name: "move", Type: arrow.PrimitiveTypes.Int32},
		{Name: "to_move", Type: arrow.PrimitiveTypes.Int8},
		{Name: "planes", Type: list(inputSize)},
		{Name: "policy", Type: list(policySize)},
		{Name: "value", Type: arrow.PrimitiveTypes.Float32},
		{Name: "dwin", Type: list(d)},
		{Name: "dmask", Type: list(d)},
	}, nil)
}

// NetworkLossesSchema is the schema of the loss curve (losses.arrow) of a
// network dataset (package train, kind "network", version 1): one row per
// logged training step.
func NetworkLossesSchema() *arrow.Schema {
	f64 := arrow.PrimitiveTypes.Float64
	return arrow.NewSchema([]arrow.Field{
		{Name: "step", Type: arrow.PrimitiveTypes.Int64},
		{Name: "lr", Type: f64},
		{Name: "policy", Type: f64},
		{Name: "value", Type: f64},
		{Name: "dwin", Type: f64},
		{Name: "total", Type: f64},
	}, nil)
}

// RZPatternsSchema is the schema of a pattern database (package rztstore,
// kind "rz-patterns", version 1): one row per RZ pattern table entry.
// Points are row-major indices y*size+x. contents holds one character per
// zone point, in the order of zone: 'B', 'W' or '.' (empty). ko is -1 when
// there is no ko point. stamp is the entry's insertion index in the run
// that proved it.
func RZPatternsSchema() *arrow.Schema {
	points := arrow.ListOf(arrow.PrimitiveTypes.Int16)
	return arrow.NewSchema([]arrow.Field{
		{Name: "problem_id", Type: arrow.BinaryTypes.String},
		{Name: "fingerprint", Type: arrow.BinaryTypes.String},
		{Name: "board_size", Type: arrow.PrimitiveTypes.Int32},
		{Name: "stamp", Type: arrow.PrimitiveTypes.Int64},
		{Name: "to_move", Type: arrow.BinaryTypes.String},
		{Name: "ko", Type: arrow.PrimitiveTypes.Int16},
		{Name: "zone", Type: points},
		{Name: "contents", Type: arrow.BinaryTypes.String},
		{Name: "crucial", Type: points},
	}, nil)
}

// SolveResultsSchema is the schema of a solve-results dataset (package
// evaluate, kind "solve-results", version 2): one row per solved problem,
// the fields of evaluate.SolveRow. Version 2 added search, proved_by and
// reason, which say how each result was reached.
func SolveResultsSchema() *arrow.Schema {
	str, i32, i64 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64
	boolean := arrow.FixedWidthTypes.Boolean
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: str},
		{Name: "set", Type: str},
		{Name: "source", Type: str},
		{Name: "size", Type: i32},
		{Name: "to_play", Type: str},
		{Name: "living", Type: str},
		{Name: "winner", Type: str},
		{Name: "result", Type: str},
		{Name: "first_move", Type: str},
		{Name: "answer_first_move", Type: str},
		{Name: "nodes", Type: i64},
		{Name: "seconds", Type: arrow.PrimitiveTypes.Float64},
		{Name: "rz_size", Type: i32},
		{Name: "tt_hits", Type: i64},
		{Name: "table_hits", Type: i64},
		{Name: "aborted", Type: boolean},
		{Name: "algo", Type: str},
		{Name: "rz", Type: boolean},
		{Name: "tt", Type: boolean},
		{Name: "budget", Type: i64},
		{Name: "evaluator", Type: str},
		{Name: "paper_nodes", Type: str},
		{Name: "rzt_paper", Type: str},
		{Name: "search", Type: str},
		{Name: "proved_by", Type: str},
		{Name: "reason", Type: str},
	}, nil)
}

// ProblemsSchema is the schema of a problems dataset (package evaluate,
// kind "problems", version 1): one row per problem, the fields of
// evaluate.ProblemRow.
func ProblemsSchema() *arrow.Schema {
	str, i32 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: str},
		{Name: "source", Type: str},
		{Name: "size", Type: i32},
		{Name: "to_play", Type: str},
		{Name: "winner", Type: str},
		{Name: "goal_black", Type: str},
		{Name: "goal_white", Type: str},
		{Name: "ko_black", Type: str},
		{Name: "ko_white", Type: str},
		{Name: "crucial_stones", Type: i32},
		{Name: "region_size", Type: i32},
		{Name: "ftl_d", Type: i32},
		{Name: "answer_first_move", Type: str},
		{Name: "paper_nodes", Type: str},
	}, nil)
}

// MovePredResultsSchema is the schema of a movepred results dataset
// (package evaluate, kind "movepred-results", version 1): one row per
// player evaluated on move prediction (a movepred.Result). The per-phase
// records and the feature frequencies are parallel list columns:
// phase_from[i], phase_to[i], ... describe phase i; feature[j],
// feature_legal[j], ... feature j.
func MovePredResultsSchema() *arrow.Schema {
	f64, i64 := arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64
	f64List := arrow.ListOf(f64)
	i32List := arrow.ListOf(arrow.PrimitiveTypes.Int32)
	return arrow.NewSchema([]arrow.Field{
		{Name: "player", Type: arrow.BinaryTypes.String},
		{Name: "positions", Type: i64},
		{Name: "legal_moves", Type: i64},
		{Name: "top1", Type: f64},
		{Name: "top5", Type: f64},
		{Name: "top_k", Type: f64List},
		{Name: "mean_rank", Type: f64},
		{Name: "mean_log_likelihood", Type: f64},
		{Name: "phase_from", Type: i32List},
		{Name: "phase_to", Type: i32List},
		{Name: "phase_positions", Type: arrow.ListOf(i64)},
		{Name: "phase_top1", Type: f64List},
		{Name: "phase_top5", Type: f64List},
		{Name: "phase_log_likelihood", Type: f64List},
		{Name: "feature", Type: i32List},
		{Name: "feature_legal", Type: f64List},
		{Name: "feature_played", Type: f64List},
		{Name: "feature_predicted", Type: f64List},
	}, nil)
}

// MatchResultsSchema is the schema of a match-results dataset (package
// match, kind "match-results", version 1): one row per game between two
// engines.
func MatchResultsSchema() *arrow.Schema {
	str := arrow.BinaryTypes.String
	return arrow.NewSchema([]arrow.Field{
		{Name: "game", Type: arrow.PrimitiveTypes.Int32},
		{Name: "black", Type: str},
		{Name: "white", Type: str},
		{Name: "a_colour", Type: str},
		{Name: "winner", Type: str},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64},
		{Name: "re", Type: str},
		{Name: "end", Type: str},
		{Name: "scored_by", Type: str},
		{Name: "moves", Type: arrow.PrimitiveTypes.Int32},
		{Name: "seconds", Type: arrow.PrimitiveTypes.Float64},
		{Name: "sgf", Type: str},
	}, nil)
}

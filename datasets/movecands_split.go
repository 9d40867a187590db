package datasets

import "fmt"

// DateRange selects game records by their SGF date (DT), as the import's
// FromDate and ToDate do: a game is inside when its date starts with
// YYYY-MM-DD and lies in [From, To], each bound compared on its own
// precision ("YYYY", "YYYY-MM" or "YYYY-MM-DD"; empty means unbounded). It is
// how datasets are split by date: for tom9d, {From: "2003", To: "2009"} is
// the training range and {From: "2010", To: "2010"} the validation range.
type DateRange struct {
	From, To string
}

// Check reports a bound that is not YYYY, YYYY-MM or YYYY-MM-DD, or an empty
// range.
func (r DateRange) Check() error {
	for _, d := range []struct{ name, v string }{{"from", r.From}, {"to", r.To}} {
		if d.v == "" {
			continue
		}
		if err := CheckDateBound(d.v); err != nil {
			return fmt.Errorf("datasets: date range: %s %w", d.name, err)
		}
	}
	if r.From != "" && r.To != "" {
		n := min(len(r.From), len(r.To))
		if r.From[:n] > r.To[:n] {
			return fmt.Errorf("datasets: date range: from %q is after to %q", r.From, r.To)
		}
	}
	return nil
}

// Skip returns why a game dated date falls outside the range (SkipNoDate,
// SkipBeforeFrom or SkipAfterTo), or "" when it is inside. An unbounded
// range takes every game, dated or not.
func (r DateRange) Skip(date string) string {
	return dateSkip(date, r.From, r.To)
}

// String writes the range as "FROM..TO" ("" and "..2009" for open ends).
func (r DateRange) String() string {
	if r.From == "" && r.To == "" {
		return ""
	}
	return r.From + ".." + r.To
}

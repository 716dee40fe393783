package price

// Names the tests use that the program does not: what a table says of
// itself.

// Date is the day the table's prices were taken (YYYY-MM-DD).
func (t *Table) Date() string { return t.date }

// Source says where the table's prices come from.
func (t *Table) Source() string { return t.source }

// Len is the number of models in the table.
func (t *Table) Len() int { return len(t.models) }

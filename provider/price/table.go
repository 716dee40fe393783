package price

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agt-project/agt"
)

// Schema is the value of the schema field of the generated format.
const Schema = "agt.prices/1"

// Rates are one model's prices in USD per token. A nil rate is one the source
// does not list.
type Rates struct {
	Input         float64  `json:"input"`
	Output        float64  `json:"output"`
	CacheRead     *float64 `json:"cache_read,omitempty"`
	CacheWrite    *float64 `json:"cache_write,omitempty"`    // 5-minute lifetime
	CacheWrite1h  *float64 `json:"cache_write_1h,omitempty"` // 1-hour lifetime
	Tiers         []Tier   `json:"tiers,omitempty"`          // by Above, ascending
	ContextWindow int64    `json:"context_window,omitempty"` // max input tokens
	Fast          float64  `json:"fast,omitempty"`           // fast-mode multiplier
	Provider      string   `json:"provider,omitempty"`       // LiteLLM's litellm_provider
	Mode          string   `json:"mode,omitempty"`           // LiteLLM's mode
}

// Tier holds the rates that replace the base rates when a call's prompt
// exceeds Above tokens.
type Tier struct {
	Above        int64    `json:"above"`
	Input        *float64 `json:"input,omitempty"`
	Output       *float64 `json:"output,omitempty"`
	CacheRead    *float64 `json:"cache_read,omitempty"`
	CacheWrite   *float64 `json:"cache_write,omitempty"`
	CacheWrite1h *float64 `json:"cache_write_1h,omitempty"`
}

// File is the generated format: a dated set of rates by model id.
type File struct {
	Schema string           `json:"schema"`
	Date   string           `json:"date"`
	Source string           `json:"source"`
	Models map[string]Rates `json:"models"`
}

// Table is a price table with its model id matching.
type Table struct {
	date, source string
	sum          string            // SHA-256 of the file it was loaded from (Load)
	models       map[string]*Rates // by lower-case id
	latest       map[string]string // undated id → the dated id with the latest date
	matched      sync.Map          // model as given → matched id ("" for none)
}

//go:embed prices.json
var embedded []byte

var (
	defaultOnce  sync.Once
	defaultTable *Table
)

// Default returns the embedded table.
func Default() *Table {
	defaultOnce.Do(func() {
		t, err := Parse(embedded)
		if err != nil {
			panic("price: embedded prices.json: " + err.Error())
		}
		defaultTable = t
	})
	return defaultTable
}

// Load reads a table from a file in the generated format or in LiteLLM's
// format. A LiteLLM file's date is the day it was last modified (UTC) and its
// source is its file name.
func Load(path string) (*Table, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.date == "" {
		if fi, err := os.Stat(path); err == nil {
			t.date = fi.ModTime().UTC().Format("2006-01-02")
		}
	}
	if t.source == "" {
		t.source = filepath.Base(path)
	}
	h := sha256.Sum256(b)
	t.sum = hex.EncodeToString(h[:])
	return t, nil
}

// Sum is the SHA-256 (hex) of the file the table was loaded from, "" for
// the embedded table: what decides whether outputs made with it are
// current, without reading the file again (it may be a pipe).
func (t *Table) Sum() string { return t.sum }

// MaxFile bounds a price file: LiteLLM's whole table is under 2 MB.
const MaxFile = 64 << 20

// ReadFile reads a price file of at most MaxFile bytes, so that a device
// or a pipe that never ends (--prices /dev/zero) is an error, not a read
// until memory runs out.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > MaxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a price table", path, MaxFile>>20)
	}
	return b, nil
}

// Parse reads a table in the generated format (recognised by its schema
// field) or in LiteLLM's format (a LiteLLM table has no date or source).
func Parse(data []byte) (*Table, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a byte order mark, as some editors write
	var head struct {
		Schema any `json:"schema"`
	}
	if err := agt.API.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a price table: %w", err)
	}
	if s, _ := head.Schema.(string); s == Schema {
		var f File
		if err := agt.API.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", Schema, err)
		}
		return New(f.Date, f.Source, f.Models), nil
	}
	models, err := ParseLiteLLM(data)
	if err != nil {
		return nil, err
	}
	if len(models) == 0 {
		return nil, errors.New("no model with input and output prices")
	}
	return New("", "", models), nil
}

// New builds a table from rates by model id.
func New(date, source string, models map[string]Rates) *Table {
	t := &Table{date: date, source: source, models: map[string]*Rates{}, latest: map[string]string{}}
	ids := make([]string, 0, len(models))
	for id := range models {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		r := models[id]
		r.Tiers = slices.Clone(r.Tiers)
		slices.SortStableFunc(r.Tiers, func(a, b Tier) int { return int(a.Above - b.Above) })
		lid := strings.ToLower(id)
		if _, dup := t.models[lid]; dup {
			continue // ids differing only in case: the first in sorted order
		}
		t.models[lid] = &r
	}
	for lid := range t.models {
		base, date := splitDate(lid)
		if date == "" {
			continue
		}
		if cur, ok := t.latest[base]; !ok || laterDate(lid, date, cur) {
			t.latest[base] = lid
		}
	}
	return t
}

// laterDate orders dated ids by date (digits only), then by id, so that the
// choice does not depend on map order.
func laterDate(id, date, cur string) bool {
	_, cd := splitDate(cur)
	d, c := strings.ReplaceAll(date, "-", ""), strings.ReplaceAll(cd, "-", "")
	if d != c {
		return d > c
	}
	return id < cur
}

// Models lists the table's model ids (lower case), sorted.
func (t *Table) Models() []string {
	ids := make([]string, 0, len(t.models))
	for id := range t.models {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Rates returns the rates of the entry model matches.
func (t *Table) Rates(model string) (id string, r Rates, ok bool) {
	id, ok = t.Match(model)
	if !ok {
		return "", Rates{}, false
	}
	return id, *t.models[id], true
}

// Encode writes f in the generated format: compact, one model per line,
// sorted by id, so that a regenerated table reviews as a line diff.
func Encode(w io.Writer, f File) error {
	var b bytes.Buffer
	hdr, err := agt.API.Marshal(struct {
		Schema string `json:"schema"`
		Date   string `json:"date"`
		Source string `json:"source"`
	}{Schema, f.Date, f.Source})
	if err != nil {
		return err
	}
	b.Write(hdr[:len(hdr)-1])
	b.WriteString(`,"models":{`)
	ids := make([]string, 0, len(f.Models))
	for id := range f.Models {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := agt.API.Marshal(id)
		if err != nil {
			return err
		}
		v, err := agt.API.Marshal(f.Models[id])
		if err != nil {
			return err
		}
		b.WriteByte('\n')
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString("\n}}\n")
	_, err = w.Write(b.Bytes())
	return err
}

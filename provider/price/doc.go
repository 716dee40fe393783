// Package price prices agt usage records: it sets what agt-normalize writes
// into usage.cost_usd and usage.context_window.
//
// The embedded table (prices.json) is a dated snapshot of LiteLLM's
// model_prices_and_context_window.json (per-token input, output, cache-read,
// 5-minute and 1-hour cache-write rates, the rates above a prompt size of
// 200k or 272k tokens, max_input_tokens as the context window) for the text
// models (modes chat, responses, completion) of the snapshot: Claude, OpenAI
// (gpt-4*, gpt-5*, o-series, codex), Gemini and the few others it lists. It is
// generated, never edited by hand; to regenerate it from a newer LiteLLM file:
//
//	go generate ./provider/price/
//	go run ./provider/price/internal/gen [-o prices.json] [-date YYYY-MM-DD] [-source TEXT] [litellm.json]
//
// The input defaults to ../shared/pricing/litellm-prices.json next to the
// repository, its date and origin are read from the PROVENANCE.md beside it,
// and the few corrections the generator applies to the snapshot are listed
// (with their reasons) in internal/gen. Load reads a replacement table
// (agt-normalize --prices FILE) in either LiteLLM's format or the generated
// one.
//
// Cost of one usage record, in agt's meaning of the counts (DESIGN.md §2):
//
//	input×input + cache_read×cache_read + (cache_write−cache_write_1h)×cache_write
//	  + cache_write_1h×cache_write_1h + output×output
//
// Decisions where the sources leave room:
//   - Long-context tiers switch the whole request: when the prompt of a call
//     (input + cache_read + cache_write) exceeds a tier's threshold, every
//     count of the call is billed at that tier's rates, as Anthropic, OpenAI
//     and Google bill and as LiteLLM computes it (ccusage 20 does the same for
//     per-request thresholds; for LiteLLM's default 200k fields it splits each
//     count at 200k instead, which gives the same figure for every call below
//     200k). A rate a tier does not list is the rate below it, except the
//     1-hour cache-write rate, which keeps its ratio to the input rate
//     (Anthropic bills 1-hour writes at twice the input rate of the tier).
//   - Scope "run" records sum many calls, so their size says nothing about
//     any one call's prompt: they are priced at the base rates, never at a
//     long-context tier (a lower bound when some calls crossed a threshold).
//   - A missing cache-read or 5-minute cache-write rate is the input rate
//     (cached tokens are not free; providers that list no write premium bill
//     cache misses as input); a missing 1-hour rate is twice the input rate.
//   - Fast mode (Claude's usage.speed "fast") multiplies the cost by the
//     model's fast multiplier (LiteLLM's provider_specific_entry.fast);
//     agt.Usage does not carry the speed yet, so only CostSpeed applies it.
//   - The context window is the table's max_input_tokens, except for Claude
//     models listed with more than 200k tokens: they are sold with 200k and
//     1M, and a call (or run) gets the larger only when its model id ends in
//     "[1m]" or its prompt exceeds 200k tokens (see Window and StandardWindow).
//   - Model ids match exactly first, then without provider or path prefixes
//     (anthropic/, openai/, vertex_ai/, openrouter/…/, Bedrock's
//     us.anthropic. and -v1:0), without a ":variant" or "[1m]" suffix, with
//     Claude's dotted versions written with dashes (claude-opus-4.8), with
//     Vertex's @date as -date, and dated ↔ undated (an undated id takes the
//     entry with the latest date). As a last resort, leading dash-separated
//     words are dropped (a gateway's "aide-gpt-5" is gpt-5). Nothing else is
//     guessed: an id that matches no entry this way gets no cost.
//
// A Table is read-only once built and safe for concurrent use.
package price

//go:generate go run ./internal/gen -o prices.json

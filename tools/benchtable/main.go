// Command benchtable is `make bench`: it builds the filters, generates large
// log trees with the shared generator, and prints MB/s and peak RSS of each
// filter beside cat, jq and (when installed) ccusage and tokscale on the same
// bytes, each figure the median of several runs; with ccusage, a line
// compares agt-report --by day with ccusage's daily report (issue 27: no
// more time, a peak RSS within 1.5×).
//
//	go run ./tools/benchtable [-mib 200] [-runs 3] [-shared ../shared]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

func main() {
	mib := flag.Int("mib", 200, "MiB of Claude Code logs to generate (Codex: half)")
	runs := flag.Int("runs", 3, "runs per figure (the median is shown)")
	shared := flag.String("shared", filepath.Join("..", "shared"), "the shared folder (corpus and generator)")
	cache := flag.String("cache", filepath.Join(os.TempDir(), "agt-bench"), "where trees and tools are kept between runs")
	base := flag.String("base", "", "a git revision whose build is timed beside this one (the fused rows)")
	flag.Parse()
	if err := run(*mib, *runs, *shared, *cache, *base); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// step is one process of a measured pipeline.
type step struct {
	name string
	args []string
	env  []string
	// fresh is a folder the step writes, new at each run: the argument
	// equal to it becomes fresh/N, a folder no run wrote, and the folders
	// are removed once the tree's rows are done, not before each run (the
	// disk is synced before each, so that the last run's writes are not
	// timed). Removing the last run's folder just before a run timed the
	// file system's work on it: ext4 without a journal, at each file it
	// creates, steps one by one over every inode of the group freed in
	// the last 5 seconds (minutes, until they are written out), and a run
	// after removing 1,074 files paid about 0.8 s more system time for it.
	fresh string
	stdin string // a file the step reads as its standard input
}

// result is one measured run.
type result struct {
	wall time.Duration
	cpu  time.Duration // user and system time, summed over the pipeline's processes
	rss  int64         // KiB, summed over the pipeline's processes
}

func run(mib, runs int, shared, cache, base string) error {
	bin := filepath.Join(cache, "bin")
	fmt.Fprintln(os.Stderr, "building the filters…")
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/...").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	baseBin := ""
	if base != "" {
		var err error
		if baseBin, err = buildAt(base, cache); err != nil {
			return err
		}
	}
	tree := filepath.Join(cache, fmt.Sprintf("tree-%d", mib))
	if _, err := os.Stat(filepath.Join(tree, "MANIFEST.json")); err != nil {
		fmt.Fprintln(os.Stderr, "generating the log trees…")
		gen := exec.Command("python3", filepath.Join(shared, "tools", "gen-big-logs.py"), fmt.Sprint(mib), fmt.Sprint(mib/2), "--out", tree, "--samples", filepath.Join(shared, "corpus"))
		gen.Stderr = os.Stderr
		if err := gen.Run(); err != nil {
			return fmt.Errorf("gen-big-logs.py: %v", err)
		}
	}
	ccusage := findCCUsage(cache)
	tokscale, _ := exec.LookPath("tokscale")
	agt := func(name string) string { return filepath.Join(bin, name) }
	for _, p := range []string{"claude", "codex"} {
		dir := filepath.Join(tree, p)
		files, size := logFiles(dir)
		out := filepath.Join(cache, "out")
		if err := os.RemoveAll(out); err != nil { // a folder an interrupted bench left
			return err
		}
		// the events of the tree, raw and normalized, for the pipe's later
		// processes timed alone (not timed themselves)
		events, normalized := filepath.Join(cache, p+".events.jsonl"), filepath.Join(cache, p+".normalized.jsonl")
		if err := save(events, "", agt("agt-parse"), "-q", dir); err != nil {
			return err
		}
		if err := save(normalized, events, agt("agt-normalize"), "-q"); err != nil {
			return err
		}
		rows := []struct {
			name  string
			steps []step
		}{
			{"cat", []step{{name: "cat", args: files}}},
			{"jq -c .", []step{{name: "cat", args: files}, {name: "jq", args: []string{"-c", "."}}}},
			{"agt-parse", []step{{name: agt("agt-parse"), args: []string{"-q", dir}}}},
			{"agt-normalize (fused)", []step{{name: agt("agt-normalize"), args: []string{"-q", dir}}}},
			{"agt-transcript (fused, stdout)", []step{{name: agt("agt-transcript"), args: []string{"-q", dir}}}},
			{"agt-transcript -o (fused, batch)", []step{{name: agt("agt-transcript"), args: []string{"-q", "-o", out, dir}, fresh: out}}},
			{"agt-normalize < events", []step{{name: agt("agt-normalize"), args: []string{"-q"}, stdin: events}}},
			{"agt-transcript < normalized events", []step{{name: agt("agt-transcript"), args: []string{"-q"}, stdin: normalized}}},
			{"parse | normalize | transcript", []step{{name: agt("agt-parse"), args: []string{"-q", dir}}, {name: agt("agt-normalize"), args: []string{"-q"}}, {name: agt("agt-transcript"), args: []string{"-q"}}}},
			{"agt-report --by day", []step{{name: agt("agt-report"), args: []string{"-q", "--by", "day", "--tz", "UTC", "--json", dir}}}},
		}
		if baseBin != "" {
			was := filepath.Join(baseBin, "agt-transcript")
			rows = append(rows, []struct {
				name  string
				steps []step
			}{
				{"agt-transcript (fused) at " + base, []step{{name: was, args: []string{"-q", dir}}}},
				{"agt-transcript -o at " + base, []step{{name: was, args: []string{"-q", "-o", out, dir}, fresh: out}}},
			}...)
		}
		if ccusage != "" {
			env := "CLAUDE_CONFIG_DIR=" + dir
			if p == "codex" {
				env = "CODEX_HOME=" + dir
			}
			rows = append(rows, struct {
				name  string
				steps []step
			}{"ccusage " + p + " session --json", []step{{name: ccusage, args: []string{p, "session", "--json", "--offline"}, env: []string{env}}}})
			// the report beside agt-report --by day
			rows = append(rows, struct {
				name  string
				steps []step
			}{"ccusage " + p + " daily --json", []step{{name: ccusage, args: []string{p, "daily", "--json", "--offline", "--timezone", "UTC"}, env: []string{env}}}})
		}
		if tokscale != "" {
			rows = append(rows, struct {
				name  string
				steps []step
			}{"tokscale", []step{{name: tokscale, args: []string{"--home", filepath.Join(tree, "home"), "--json"}}}})
		}
		fmt.Printf("\n%s tree: %d files, %.1f MB (median of %d runs, the rows in turn; RSS summed over a pipeline's processes)\n\n", p, len(files), float64(size)/1e6, runs)
		fmt.Printf("| %-34s | %8s | %6s | %9s | %9s | %7s | %10s |\n", "tool", "seconds", "CPU s", "MB/s", "peak RSS", "× jq", "× ccusage")
		fmt.Printf("|%s|%s|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 36), strings.Repeat("-", 10), strings.Repeat("-", 8), strings.Repeat("-", 11), strings.Repeat("-", 11), strings.Repeat("-", 9), strings.Repeat("-", 12))
		var jq, cc float64
		type line struct {
			name string
			r    result
		}
		var lines []line
		steps := make([][]step, len(rows))
		for i, row := range rows {
			steps[i] = row.steps
		}
		results, errs := measure(steps, runs)
		for i, row := range rows {
			r, err := results[i], errs[i]
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", row.name, err)
				continue
			}
			lines = append(lines, line{row.name, r})
			rate := float64(size) / 1e6 / r.wall.Seconds()
			switch {
			case row.name == "jq -c .":
				jq = rate
			case strings.HasPrefix(row.name, "ccusage") && cc == 0: // the session report: × ccusage
				cc = rate
			}
		}
		if err := os.RemoveAll(out); err != nil { // the -o rows' folders, once timed
			return err
		}
		syncDisks()
		named := map[string]result{}
		for _, l := range lines {
			named[l.name] = l.r
			rate := float64(size) / 1e6 / l.r.wall.Seconds()
			fmt.Printf("| %-34s | %8.2f | %6.2f | %9.1f | %6.0f MB | %7s | %10s |\n", l.name, l.r.wall.Seconds(), l.r.cpu.Seconds(), rate, float64(l.r.rss)/1024, ratio(rate, jq), ratio(rate, cc))
		}
		if l := versus(named, "agt-report --by day", "ccusage "+p+" daily --json"); l != "" {
			fmt.Println("\n" + l)
		}
		if l := versus(named, "agt-transcript (fused, stdout)", "agt-transcript (fused) at "+base); base != "" && l != "" {
			fmt.Println(l)
		}
		if l := versus(named, "agt-transcript -o (fused, batch)", "agt-transcript -o at "+base); base != "" && l != "" {
			fmt.Println(l)
		}
		pipe, okp := named["parse | normalize | transcript"]
		fused, okf := named["agt-transcript (fused, stdout)"]
		if okp && okf {
			fmt.Printf("\npipe ÷ fused: time %.2f×, CPU %.2f×, summed RSS %.2f×\n", pipe.wall.Seconds()/fused.wall.Seconds(), pipe.cpu.Seconds()/fused.cpu.Seconds(), float64(pipe.rss)/float64(fused.rss))
		}
		if folder, ok := named["agt-transcript -o (fused, batch)"]; ok && okf {
			fmt.Printf("-o ÷ fused: time %.2f×\n", folder.wall.Seconds()/fused.wall.Seconds())
		}
		if apply, cpu, err := serialShare(agt("agt-transcript"), dir, runs); err != nil {
			fmt.Fprintf(os.Stderr, "serial share: %v\n", err)
		} else {
			fmt.Printf("serial share of the fused run's CPU: %.1f%% (ordered apply step %.2f s of %.2f s CPU; median of %d runs)\n", 100*apply/cpu, apply, cpu, runs)
		}
	}
	return nil
}

// versus compares row a with row b, as issue 27 asks of the report (no
// more time than ccusage's daily report, a peak RSS within 1.5× of its):
// "" when either row is missing.
func versus(named map[string]result, a, b string) string {
	ra, oka := named[a]
	rb, okb := named[b]
	if !oka || !okb || rb.wall <= 0 || rb.cpu <= 0 || rb.rss <= 0 {
		return ""
	}
	return fmt.Sprintf("%s ÷ %s: time %.2f×, CPU %.2f×, peak RSS %.2f×", a, b, ra.wall.Seconds()/rb.wall.Seconds(), ra.cpu.Seconds()/rb.cpu.Seconds(), float64(ra.rss)/float64(rb.rss))
}

// serialShare runs the fused agt-transcript over dir runs times with
// AGT_DEBUG_SERIAL set, and returns the median of the share of its CPU
// time (user + system) spent in the one ordered step, which it prints on
// stderr, with that run's figures.
func serialShare(bin, dir string, runs int) (apply, cpu float64, err error) {
	type run struct{ apply, cpu float64 }
	var rs []run
	for range runs {
		cmd := exec.Command(bin, "-q", dir)
		cmd.Env = append(os.Environ(), "AGT_DEBUG_SERIAL=1")
		var stderr strings.Builder
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		if err := cmd.Run(); err != nil {
			return 0, 0, err
		}
		const tag = "ordered apply step: "
		out := stderr.String()
		i := strings.Index(out, tag)
		var a float64
		if i < 0 {
			return 0, 0, fmt.Errorf("no ordered apply step time in %q", out)
		}
		if _, err := fmt.Sscanf(out[i+len(tag):], "%g s", &a); err != nil {
			return 0, 0, fmt.Errorf("%q: %v", out, err)
		}
		rs = append(rs, run{a, (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].apply/rs[i].cpu < rs[j].apply/rs[j].cpu })
	m := rs[len(rs)/2]
	return m.apply, m.cpu, nil
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// logFiles lists the .jsonl files below dir, sorted, and their size.
func logFiles(dir string) ([]string, int64) {
	var files []string
	var size int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
			if st, err := d.Info(); err == nil {
				size += st.Size()
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, size
}

// freshRuns numbers the folders of steps with fresh, so that no two runs
// (of one row or of two) write the same.
var freshRuns atomic.Int64

// measure runs a pipeline runs times and returns the median wall time and
// the median of the summed peak RSS.
func measure(rows [][]step, runs int) ([]result, []error) {
	// the rows take turns, run after run: a machine whose speed drifts
	// over a minute (a shared host) slows every row alike, and a row
	// compared with another (the build before, ccusage) is timed in the
	// same moments
	rs := make([][]result, len(rows))
	errs := make([]error, len(rows))
	for range runs {
		for i, steps := range rows {
			if errs[i] != nil {
				continue
			}
			run, err := fresh(steps)
			if err == nil {
				var r result
				if r, err = once(run); err == nil {
					rs[i] = append(rs[i], r)
				}
			}
			if err != nil {
				errs[i] = err
			}
		}
	}
	meds := make([]result, len(rows))
	for i, r := range rs {
		if errs[i] == nil {
			meds[i] = median(r)
		}
	}
	return meds, errs
}

// fresh gives the steps of one run: a step with a fresh folder writes
// into a new folder under it.
func fresh(steps []step) ([]step, error) {
	run := append([]step(nil), steps...)
	for j, s := range steps {
		if s.fresh == "" {
			continue
		}
		if err := os.MkdirAll(s.fresh, 0o777); err != nil {
			return nil, err
		}
		dir := filepath.Join(s.fresh, strconv.FormatInt(freshRuns.Add(1), 10))
		run[j].args = slices.Clone(s.args)
		for k, a := range s.args {
			if a == s.fresh {
				run[j].args[k] = dir
			}
		}
		syncDisks()
	}
	return run, nil
}

// median is the median of each figure of rs.
func median(rs []result) result {
	sort.Slice(rs, func(i, j int) bool { return rs[i].wall < rs[j].wall })
	med := rs[len(rs)/2]
	sort.Slice(rs, func(i, j int) bool { return rs[i].rss < rs[j].rss })
	med.rss = rs[len(rs)/2].rss
	sort.Slice(rs, func(i, j int) bool { return rs[i].cpu < rs[j].cpu })
	med.cpu = rs[len(rs)/2].cpu
	return med
}

func once(steps []step) (result, error) {
	cmds := make([]*exec.Cmd, len(steps))
	for i, s := range steps {
		cmds[i] = exec.Command(s.name, s.args...)
		cmds[i].Env = append(os.Environ(), s.env...)
		cmds[i].Stderr = io.Discard
		if s.stdin != "" {
			f, err := os.Open(s.stdin)
			if err != nil {
				return result{}, err
			}
			defer f.Close()
			cmds[i].Stdin = f
		}
	}
	for i := 1; i < len(cmds); i++ {
		r, err := cmds[i-1].StdoutPipe()
		if err != nil {
			return result{}, err
		}
		cmds[i].Stdin = r
	}
	// the output goes to a pipe, as to the next filter of a pipeline, read
	// in large blocks: the reader's own work is kept small (exec's copy to
	// io.Discard read 8 KiB at a time, tens of thousands of reads beside
	// the measured run on two cores)
	pr, pw, err := os.Pipe()
	if err != nil {
		return result{}, err
	}
	cmds[len(cmds)-1].Stdout = pw
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 1<<20)
		for {
			if _, err := pr.Read(buf); err != nil {
				return
			}
		}
	}()
	defer func() { pr.Close(); <-drained }()
	start := time.Now()
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			pw.Close()
			return result{}, err
		}
	}
	pw.Close() // the last process holds the pipe's writing end
	var rss int64
	var cpu time.Duration
	var first error
	for _, c := range cmds {
		if err := c.Wait(); err != nil && first == nil {
			first = fmt.Errorf("%s: %v", c.Path, err)
		}
		rss += peakRSS(c.ProcessState)
		cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	return result{time.Since(start), cpu, rss}, first
}

// save writes what a command prints to file (reading in, when set).
func save(file, in string, name string, args ...string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdout = f
	if in != "" {
		r, err := os.Open(in)
		if err != nil {
			return err
		}
		defer r.Close()
		cmd.Stdin = r
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, stderr.String())
	}
	return f.Close()
}

// findCCUsage finds ccusage 20 on PATH, or installs it from the npm
// registry into the cache when npm is there.
func findCCUsage(cache string) string {
	if p, err := exec.LookPath("ccusage"); err == nil {
		return p
	}
	local := filepath.Join(cache, "npm", "node_modules", ".bin", "ccusage")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return ""
	}
	fmt.Fprintln(os.Stderr, "installing ccusage@20.0.24 for comparison…")
	if err := exec.Command("npm", "install", "--silent", "--prefix", filepath.Join(cache, "npm"), "ccusage@20.0.24").Run(); err != nil {
		fmt.Fprintln(os.Stderr, "ccusage not installed:", err)
		return ""
	}
	return local
}

// buildAt builds the filters of git revision rev (its tree exported
// under cache, not checked out here) and returns the folder of the
// binaries.
func buildAt(rev, cache string) (string, error) {
	src, bin := filepath.Join(cache, "base-src"), filepath.Join(cache, "base-bin")
	if err := os.RemoveAll(src); err != nil {
		return "", err
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "building the filters at %s…\n", rev)
	archive := exec.Command("git", "archive", "--format=tar", rev)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	if err := untar.Start(); err != nil {
		return "", err
	}
	var stderr strings.Builder
	archive.Stderr = &stderr
	if err := archive.Run(); err != nil {
		return "", fmt.Errorf("git archive %s: %v\n%s", rev, err, stderr.String())
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("tar: %v", err)
	}
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/...")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build at %s: %v\n%s", rev, err, out)
	}
	return bin, nil
}

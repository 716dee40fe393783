package cline

import (
	"strings"

	"github.com/agt-project/agt"
)

// uiTool is how the panel shows a tool the model called: the name the
// model called (its API name), the panel's members as the tool's
// parameters ("panel=param"; members not listed are left out), constant
// members the panel's name implies, and the member that holds the tool's
// result when the panel shows it.
type uiTool struct {
	native string
	params string
	fixed  map[string]any
	result string
}

// uiTools are the panel's tool records ({"tool": …} in a say or ask
// record's text), by their tool member: Cline's, then those Roo Code and
// Kilo Code add. The panel shows a file's content or a diff in content.
var uiTools = map[string]uiTool{
	"readFile":                 {native: "read_file", params: "path=path"},
	"newFileCreated":           {native: "write_to_file", params: "path=path content=content"},
	"editedExistingFile":       {native: "replace_in_file", params: "path=path content=diff diff=diff"},
	"fileDeleted":              {native: "delete_file", params: "path=path"},
	"listFilesTopLevel":        {native: "list_files", params: "path=path", fixed: map[string]any{"recursive": false}, result: "content"},
	"listFilesRecursive":       {native: "list_files", params: "path=path", fixed: map[string]any{"recursive": true}, result: "content"},
	"listCodeDefinitionNames":  {native: "list_code_definition_names", params: "path=path", result: "content"},
	"searchFiles":              {native: "search_files", params: "path=path regex=regex filePattern=file_pattern", result: "content"},
	"webFetch":                 {native: "web_fetch", params: "path=url url=url"},
	"summarizeTask":            {native: "summarize_task", params: "content=context"},
	"appliedDiff":              {native: "apply_diff", params: "path=path diff=diff content=diff"},
	"insertContent":            {native: "insert_content", params: "path=path lineNumber=line diff=content content=content"},
	"searchAndReplace":         {native: "search_and_replace", params: "path=path search=search replace=replace"},
	"codebaseSearch":           {native: "codebase_search", params: "query=query path=path", result: "content"},
	"newTask":                  {native: "new_task", params: "mode=mode content=message"},
	"finishTask":               {native: "attempt_completion", params: "content=result"},
	"switchMode":               {native: "switch_mode", params: "mode=mode_slug reason=reason"},
	"fetchInstructions":        {native: "fetch_instructions", params: "content=task"},
	"updateTodoList":           {native: "update_todo_list", params: "todos=todos"},
	"runSlashCommand":          {native: "run_slash_command", params: "command=command args=args"},
	"generateImage":            {native: "generate_image", params: "prompt=prompt path=path"},
	"listFilesTopLevelOutside": {native: "list_files", params: "path=path", fixed: map[string]any{"recursive": false}, result: "content"},
}

// tool emits a panel tool record as the call the model made (and its
// result when the panel shows it). A tool the table does not know keeps
// the panel's name and members.
func (p *taskParser) tool(em *agt.Emitter, m *uiMessage) {
	var rec map[string]agt.Raw
	if err := agt.API.Unmarshal([]byte(m.text()), &rec); err != nil {
		em.Errorf("tool record: text is not a JSON object")
		p.meta(em, m)
		return
	}
	name := rec["tool"].Str()
	t, ok := uiTools[name]
	if !ok {
		delete(rec, "tool")
		p.call(em, m, name, agt.Marshal(rec), nil, "")
		return
	}
	in := map[string]any{}
	for _, f := range strings.Fields(t.params) {
		from, to, _ := strings.Cut(f, "=")
		if v, ok := rec[from]; ok && in[to] == nil {
			in[to] = v
		}
	}
	for k, v := range t.fixed {
		in[k] = v
	}
	kind := ""
	if t.native == "new_task" {
		kind = "subtask"
	}
	if t.result != "" {
		kind = "ui-result"
	}
	p.call(em, m, t.native, agt.Marshal(in), nil, kind)
	if r, ok := rec[t.result]; ok && t.result != "" {
		c := p.last[kind]
		em.Emit(agt.Event{Kind: agt.KindToolResult, TS: millis(m.TS), Result: &agt.Result{ID: c.id, Call: c.event, Output: agt.String(r.Str())}}, "", "result")
		p.answered(c.id)
	}
}

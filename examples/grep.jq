# grep.jq: search sessions as grep searches files. Reads agt.event/1 lines
# (agt-parse or agt-normalize output, any agent) and prints one line per
# event whose text matches the regular expression --arg re: a prompt's,
# an answer's, a reasoning's or a system text, a tool call's name and
# input, a result's output. Each line says where: {session (the agent's
# own id), provider, stream, ts, kind, tool (a call's name), match (the
# first matching line of the text, cut to 200 characters)}. --arg flags i
# ignores case (the flags of jq's test).
#
#   agt-parse LOGS... | jq -c --arg re 'hoge\.py' -f examples/grep.jq
def text:
  if .kind == "tool_call" then .tool.name + " " + (.tool.input | tojson)
  elif .kind == "tool_result" then .result.output | if type == "string" then . else tojson end
  elif .text != null then .text | if type == "string" then . else tojson end
  else empty end;
($ARGS.named.re) as $re
| ($ARGS.named.flags // "") as $flags
| select(.kind != "usage" and .kind != "meta")
| text as $t
| select($t | test($re; $flags))
| {session: .native_session, provider, stream, ts, kind, tool: .tool.name,
   match: ([$t | split("\n")[] | select(test($re; $flags))][0] // $t | .[0:200])}
| with_entries(select(.value != null))

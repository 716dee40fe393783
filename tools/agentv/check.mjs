// check.mjs ROWS SKILL[,SKILL...]: reads agt-transcript --format agentv rows as
// `agentv eval --transcript ROWS` does (TranscriptProvider.fromFile: the
// rows grouped by test_id, one transcript each, replayed in order), takes
// each transcript's final answer with AgentV's own extractLastAssistantContent
// and runs AgentV's skill-trigger grader for each SKILL on it (the first
// is skill_triggered, all that pass are skills); prints one JSON
// line per transcript for the Go test to compare with agt's transcripts.
import { TranscriptProvider, extractLastAssistantContent, SkillTriggerGrader } from '@agentv/core';

const [rowsFile, skillList] = process.argv.slice(2);
const graders = skillList.split(',').map((skill) => [skill, new SkillTriggerGrader({ name: 'skill', type: 'skill-trigger', skill })]);
const provider = await TranscriptProvider.fromFile(rowsFile);
for (const e of provider.entries) {
  const r = await provider.invoke({});
  const calls = r.output.flatMap((m) => m.toolCalls ?? []);
  const skills = graders.filter(([, g]) => g.evaluate({ output: r.output }).verdict === 'pass').map(([s]) => s);
  console.log(JSON.stringify({
    test_id: e.testId, target: e.target, messages: r.output.length, tool_calls: calls.length,
    tools: calls.map((c) => c.tool), token_usage: r.tokenUsage ?? null, cost_usd: r.costUsd ?? null,
    duration_ms: r.durationMs ?? null, final_answer: extractLastAssistantContent(r.output),
    skill_triggered: skills.includes(graders[0][0]), skills,
  }));
}

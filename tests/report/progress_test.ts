import assert from "node:assert/strict";
import { ProgressLine } from "../../lib/report/progress.ts";
import { style } from "../../lib/report/style.ts";
import type { FlowResult } from "../../lib/model/result.ts";

const CLEAR = "\r\x1b[2K";
const ended = (file: string, status: FlowResult["status"]) => ({ file, status }) as FlowResult;

Deno.test("the line counts flows done and failed and names what runs, redrawn in place", () => {
  const out: string[] = [];
  const line = new ProgressLine((t) => void out.push(t), style(false));
  line.start(3);
  line.started("a.yaml");
  line.started("b.yaml");
  assert.equal(out.at(-1), `${CLEAR}[0/3] running a.yaml +1`);
  line.ended(ended("a.yaml", "failed"));
  assert.equal(out.at(-1), `${CLEAR}[1/3] 1 failed running b.yaml`);
  line.clear();
  assert.equal(out.at(-1), CLEAR);
  const before = out.length;
  line.clear();
  assert.equal(out.length, before, "a line already erased is not erased again");
});

Deno.test("a long file name keeps its end, made visible; the line goes when all flows ended", () => {
  const out: string[] = [];
  const line = new ProgressLine((t) => void out.push(t), style(false));
  line.start(1);
  const file = `${"d/".repeat(30)}\x1bflow.yaml`;
  line.started(file);
  assert.match(out.at(-1)!, /running …\/?(d\/)+\\eflow\.yaml$/);
  line.ended(ended(file, "passed"));
  assert.equal(out.at(-1), CLEAR);
});

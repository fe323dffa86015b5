/**
 * One request's line of the summary: how many of its checks were translated,
 * how many not, and the idioms of those not (untranslated_idioms.ts).
 *
 * @module
 */
import type { RequestReport } from "./flow_state.ts";
import type { HelperChecks } from "./helper_checks.ts";
import type { Translation } from "./script/translate.ts";
import { untranslatedIdioms } from "./untranslated_idioms.ts";
import { chaiWordReasons } from "./chai_words.ts";
import type { PmScript } from "./model.ts";

/**
 * The report of request `where` (step `step`) from its test scripts'
 * translations; `extra` schema checks beyond the step's one count as untranslated,
 * and so does each call of a helper that checks (helper_checks.ts). `scripts` place the chai
 * words named among the reasons (chai_words.ts).
 *
 * @example
 * ```ts
 * import { requestReport } from "./request_report.ts";
 * const t = { checks: [], captures: [], sets: [], untranslated: ["pm.iterationData.get('k')"], dropped: [], translated: 2, untranslatedAssertions: 1 };
 * const r = requestReport("Login", "login", [t], 0);
 * if (r.translated !== 2 || r.untranslated !== 1 || r.why?.length !== 1) throw new Error(JSON.stringify(r));
 * ```
 */
export function requestReport(
  where: string,
  step: string,
  tests: readonly Translation[],
  extra: number,
  helpers: HelperChecks = { calls: 0, names: [] },
  scripts: readonly PmScript[] = [],
): RequestReport {
  const sum = (f: (t: Translation) => number) => tests.reduce((n, t) => n + f(t), 0);
  const lines = tests.flatMap((t) => t.untranslated);
  const why = [...untranslatedIdioms(lines, extra), ...chaiWordReasons(lines, scripts)];
  if (helpers.calls > 0) {
    why.push(
      `checks made in a function a script defines (${
        helpers.names.join(", ")
      }): flowrun translates a check written in the request's own script`,
    );
  }
  return {
    request: where,
    step,
    translated: sum((t) => t.translated) - extra,
    untranslated: sum((t) => t.untranslatedAssertions) + extra + helpers.calls,
    why,
  };
}

/**
 * `flowrun convert postman`: a collection (and an environment) → flow files. Each top-level
 * folder becomes a flow (nested folders are flattened into it, in collection order, each
 * step's comment naming its folder path); requests at the top level become a flow named after
 * the collection. When a flow reads a value an earlier flow's step captured (or its script
 * made), the flows from that one to this one are merged into one, since flows share no state
 * and Newman ran them as one sequence.
 *
 * @module
 */
import { inlineClocks } from "./clock_inline.ts";
import { snake } from "../names.ts";
import { toYaml, ymap, ymapOf } from "../yaml_out.ts";
import { credentialsOf } from "./credentials.ts";
import { sessionGroups } from "./cookie_session.ts";
import { readEnvironment } from "./environment.ts";
import { FlowBuilder, type RequestReport, type Shared } from "./flow.ts";
import { type BrokenOut, brokenOut } from "./broken_out.ts";
import { hideLiterals, secretMask } from "./secret_mask.ts";
import { readCollection } from "./input.ts";
import { keptNames } from "./kept_request.ts";
import { hoistAuth, shareChecks, withAnchors } from "./shared_checks.ts";
import type { PmCollection, PmUnit } from "./model.ts";
import { type EnvNeed, Variables, varName } from "./vars.ts";
import { LBRACE_VAR, varDefault } from "./nested_vars.ts";
import { DOLLAR_REF, DOLLAR_VAR } from "../dollar.ts";
import { compareCodePoints } from "../../_util/compare.ts";
import { dataFileOf, type IterationData, readIterationData, readsData } from "./iteration_data.ts";
import { rowQueries } from "./row_query.ts";
import { namesRead, namesSet } from "./names_used.ts";

/** A file the conversion writes, relative to the output folder. */
export interface OutFile {
  path: string;
  text: string;
  /** A placeholder for a file the collection uploads: never overwrites one that is there. */
  placeholder?: boolean;
}

/** What was converted, for the summary. */
export interface PostmanSummary {
  collection: string;
  version: string;
  requests: number;
  flows: { file: string; name: string; steps: number; folders: string[] }[];
  reports: (RequestReport & { file: string })[];
  env: EnvNeed[];
  varsFile?: string;
  envFile?: string;
  unset: string[];
  /** Requests not sent because a setNextRequest skips them, as in Newman. */
  notSent: string[];
  /** Requests not converted (their method, no URL, another scheme): folder path and why. */
  unsendable: string[];
  /** Distinct OAuth2 blocks: token requests flowrun makes (once per run each) and Newman does not. */
  oauth2Tokens: number;
  /** Postman's generated values (`{{$randomNoun}}`) sent as random hex text. */
  randomized: string[];
  placeholders: string[];
  /** Variables whose value is a host without a scheme, sent with `http://` as Postman does. */
  schemeless?: string[];
  /** Requests sent as the collection holds them, though a pre-request script rewrites them. */
  rewritten?: string[];
  /** Variables a script sets in a way not translated (`partly`: also in one translated), which later requests read. */
  broken?: BrokenOut[];
  /** The data file (`-d`): its rows, written beside the flows, each a run of every flow. */
  data?: { path: string; file: string; rows: number };
  /** Whether a script reads `pm.iterationData` or a request a `{{x}}` no file gives, with no data file. */
  wantsData?: boolean;
  /** Variables set to text worked out when converting from the files' values of others (`from`). */
  derived?: { name: string; from: string[]; by: string }[];
  /** Variables set with a random draw taken at its least (`moment().add(_.random(1, 30), "d")`). */
  fixed?: { name: string; by: string }[];
}

/** The files and the summary. */
export interface PostmanResult {
  files: OutFile[];
  summary: PostmanSummary;
}

interface Built {
  builders: FlowBuilder[];
  shared: Shared;
}

function build(
  c: PmCollection,
  groups: PmUnit[][],
  _environment: Variables["values"] | undefined,
  vars: () => Variables,
): Built {
  const v = vars();
  const shared: Shared = {
    vars: v,
    mask: secretMask(v.secretValues()),
    literals: new Map(),
    capturedBy: new Map(),
    madeBy: new Map(),
    kept: { names: keptNames(c.units.flatMap((u) => u.requests)), held: new Map() },
    origins: new Map(),
    files: new Set(),
    notSent: [],
    unsendable: [],
    tokens: new Set(),
    seen: new Set(),
    read: namesRead(c),
    broken: [],
    brokenOpen: new Map(),
  };
  const builders = groups.map((group, i) => {
    const b = new FlowBuilder(i, shared);
    for (const unit of group) for (const r of unit.requests) b.add(r);
    return b;
  });
  return { builders, shared };
}

/** Groups joined where a flow reads what an earlier one captured or made; `undefined` when none does. */
function merged(groups: PmUnit[][], builders: FlowBuilder[]): PmUnit[][] | undefined {
  const join = new Array<boolean>(groups.length).fill(false);
  for (const b of builders) {
    for (const from of b.readsFrom) for (let k = from + 1; k <= b.index; k++) join[k] = true;
  }
  if (!join.includes(true)) return undefined;
  const out: PmUnit[][] = [];
  groups.forEach((g, i) => (join[i] ? out[out.length - 1].push(...g) : out.push([...g])));
  return out;
}

/**
 * The flows of a collection.
 *
 * @example
 * ```ts
 * import { convertPostman } from "./convert.ts";
 * const collection = JSON.stringify({
 *   info: { name: "Shop", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" },
 *   item: [{
 *     name: "Login",
 *     request: { method: "POST", url: "{{baseUrl}}/login", body: { mode: "raw", raw: '{"user": "ann"}' } },
 *     event: [{ listen: "test", script: { exec: ["pm.test('ok', () => pm.response.to.have.status(200));"] } }],
 *   }],
 * });
 * const { files, summary } = convertPostman(collection);
 * if (!files[0].text.includes("url: ${ENV.BASE_URL}/login") || summary.reports[0].translated !== 1) throw new Error(files[0].text);
 * ```
 *
 * `data` is Newman's data file (`-d`), its path as given and its text: each flow runs once per
 * row (`data: {file: …}`, the rows written beside the flows as Newman reads them).
 */
export function convertPostman(
  collectionText: string,
  environmentText?: string,
  globalsText?: string,
  data?: { path: string; text: string },
): PostmanResult {
  const read = readCollection(collectionText);
  const env = environmentText === undefined ? undefined : readEnvironment(environmentText);
  const globals = globalsText === undefined ? undefined : readEnvironment(globalsText, "globals");
  // A query a script adds for a row's non-empty cells only is that row's column (row_query.ts).
  const [c, rows] = rowQueries(read, data && readIterationData(data.text, data.path));
  const [credentials, companions] = credentialsOf(c, globals?.values ?? [], env?.values ?? []);
  const setByScripts = namesSet(c);
  const newVars = () => {
    const v = new Variables(
      c.variables,
      env?.values ?? [],
      globals?.values ?? [],
      new Set(credentials),
    );
    for (const name of setByScripts) v.scriptSet.add(name);
    v.companions = companions;
    if (rows) v.addData(rows.columns, rows.rows);
    for (const name of rows?.urlColumns ?? []) v.urlColumns.add(name);
    return v;
  };
  let groups = sessionGroups(c.units);
  let built = build(c, groups, undefined, newVars);
  // Each pass joins at least two groups, so this ends within as many passes as there are groups.
  for (let pass = 0; pass < c.units.length; pass++) {
    const next = merged(groups, built.builders);
    if (!next) break;
    groups = next;
    built = build(c, groups, undefined, newVars);
  }
  return write(c, groups, built, env?.name, rows);
}

function flowName(c: PmCollection, group: PmUnit[]): string {
  const folders = group.map((u) => u.folder).filter((f): f is string => f !== undefined);
  if (folders.length === 0 || group.length === c.units.length) return c.name;
  return folders.length === 1 ? folders[0] : `${c.name}: ${folders.join(", ")}`;
}

function write(
  c: PmCollection,
  groups: PmUnit[][],
  built: Built,
  envName: string | undefined,
  data: IterationData | undefined,
): PostmanResult {
  const { builders, shared } = built;
  const dataFile = data && dataFileOf(data);
  const width = String(groups.length).length;
  const files: OutFile[] = [];
  const summary: PostmanSummary = {
    collection: c.name,
    version: c.version,
    requests: c.units.reduce((n, u) => n + u.requests.length, 0),
    flows: [],
    reports: [],
    env: [],
    unset: [],
    randomized: [],
    notSent: shared.notSent,
    unsendable: shared.unsendable,
    oauth2Tokens: shared.tokens.size,
    placeholders: [...shared.files].sort(),
  };
  const taken = new Set<string>();
  groups.forEach((group, i) => {
    // A flow whose every request a setNextRequest skips is not written.
    if (builders[i].steps.length === 0) return;
    const number = String(i + 1).padStart(width, "0");
    const file = flowFile(c, group, builders[i], number, taken, dataFile?.path);
    files.push(file.out);
    summary.flows.push(file.flow);
    summary.reports.push(...builders[i].reports.map((r) => ({ ...r, file: file.out.path })));
  });
  for (const path of summary.placeholders) files.push({ path, text: "", placeholder: true });
  if (dataFile && data) {
    files.push(dataFile);
    summary.data = { path: data.path, file: dataFile.path, rows: data.rows.length };
  } else summary.wantsData = readsData(c, shared.vars);
  for (const [origin, env] of [...shared.origins].sort()) {
    shared.vars.env.set(env, { name: env, secret: false, hint: `${origin} unless set` });
  }
  summary.env = [...shared.vars.env.values()].sort((a, b) => compareCodePoints(a.name, b.name));
  summary.randomized = [...shared.vars.randomized].sort();
  summary.schemeless = [...shared.vars.schemeless].sort();
  if (shared.rewritten) summary.rewritten = shared.rewritten;
  if (shared.derived) summary.derived = [...shared.derived].map(([name, d]) => ({ name, ...d }));
  if (shared.fixed) summary.fixed = [...shared.fixed].map(([name, by]) => ({ name, by }));
  summary.broken = brokenOut(shared.broken, shared.mask ?? String);
  // A variable whose set was not translated is named once, with the requests that read it.
  const broken = new Set(summary.broken.map((b) => b.name));
  summary.unset = [...shared.vars.unset].filter((n) => !shared.vars.values.has(n) && !broken.has(n))
    .sort();
  if (envName !== undefined) addEnvironmentFiles(envName, shared.vars, files, summary, builders);
  return { files, summary };
}

/**
 * The vars file (flow vars from the environment) and env file (its non-secret environment
 * variables). A variable a script makes (`\`tom${+new Date()}\``) is left out: the file's
 * value (what an earlier Postman run left, often empty) would win over the flow's own default.
 */
function addEnvironmentFiles(
  envName: string,
  vars: Variables,
  files: OutFile[],
  summary: PostmanSummary,
  builders: FlowBuilder[],
): void {
  const base = snake(envName) || "environment";
  const values: Record<string, string> = {};
  const envLines: string[] = [];
  const made = new Set(builders.flatMap((b) => [...b.flowVars].filter((n) => b.isMade(n))));
  for (const name of [...vars.fromEnvironment].sort()) {
    // A data file's column is the row's value: a run parameter would win over every row.
    if (vars.isSecret(name) || made.has(name) || vars.dataColumns.has(name)) continue;
    const value = vars.values.get(name) ?? "";
    // One a URL starts with is read from the process environment too (`${ENV.SCHEME}://…`).
    if (vars.isEnv(name, false) || vars.readsEnv(name)) {
      const env = vars.envVar(name);
      if (!/[\r\n]/.test(value)) envLines.push(`${env}=${value}`);
    } else values[varName(name)] = value;
  }
  summary.varsFile = `${base}.vars.json`;
  files.push({ path: summary.varsFile, text: JSON.stringify(values, null, 2) + "\n" });
  if (envLines.length > 0) {
    summary.envFile = `${base}.env`;
    files.push({ path: summary.envFile, text: envLines.join("\n") + "\n" });
  }
}

/**
 * A flow's vars with their defaults as flow text, and first, when one needs it, the var holding
 * a literal `{` (a `{{name}}` Postman sends as written). Resolving a default may add vars (a
 * secret's or generated value's comes from elsewhere, so none depends on a later one).
 */
function flowVarDefaults(b: FlowBuilder): [string, string][] {
  const v = b.shared.vars;
  const atRun = (n: string) => v.isGenerated(n) || v.isSecret(n) || v.isEnv(n, false);
  // A made value two variables share comes first: each reads it (shared_made.ts).
  const out: [string, string][] = [...b.sharing.held, ...b.madeApart()]; // made_apart.ts
  for (const name of b.flowVars) {
    const value = b.defaultOf(name);
    // A var's own placeholder in its default (a credential only a script sets) is sent as
    // written until then, as Postman does: resolved, it would read itself.
    const resolves = (n: string) => n !== name && atRun(n);
    out.push([
      varName(name),
      b.isMade(name) ? value : varDefault(value, resolves, (n) => b.resolve(n)),
    ]);
  }
  // A time only the requests of the steps that made it read is read when they are sent.
  const clocks = new Map([...b.flowVars].map((n) => [varName(n), n]));
  const kept = inlineClocks(b.steps, out, (n) => {
    const name = clocks.get(n);
    return name !== undefined && b.isMade(name) ? b.clocks.stepsOf(name) : undefined;
  });
  out.splice(0, out.length, ...kept);
  // A literal "{" (in a var or a step) and a literal "$" before an expression (dollar.ts) come from vars.
  const text = JSON.stringify([out, b.steps]);
  if (text.includes(`\${vars.${LBRACE_VAR}}`)) out.unshift([LBRACE_VAR, "{"]);
  return text.includes(DOLLAR_REF) ? [[DOLLAR_VAR, "$"], ...out] : out;
}

/** One flow's file: its name, vars (with their defaults) and steps. */
function flowFile(
  c: PmCollection,
  group: PmUnit[],
  b: FlowBuilder,
  number: string,
  taken: Set<string>,
  dataFile?: string,
): { out: OutFile; flow: PostmanSummary["flows"][number] } {
  const name = flowName(c, group);
  let file = `${number}_${snake(name).slice(0, 60) || "flow"}.yaml`;
  if (taken.has(file)) file = file.replace(/\.yaml$/, `_${number}.yaml`);
  taken.add(file);
  const vars = flowVarDefaults(b);
  // A data file's columns are declared, each row giving their values (flow-format.md, `data`).
  for (const column of dataFile ? b.shared.vars.dataColumns : []) {
    if (!vars.some(([n]) => n === varName(column))) vars.push([varName(column), ""]);
  }
  const { shared } = shareChecks(b.steps);
  const auth = hoistAuth(b.steps);
  const root = ymap([
    ["name", name],
    ...shared,
    ["vars", ymapOf(vars)],
    ["data", dataFile ? ymap([["file", dataFile]]) : undefined],
    ["auth", auth],
    // What Newman does by default: follow redirects, and keep the cookies responses set.
    ["options", ymap([["follow_redirects", true], ["cookie_jar", true]])],
    ["steps", b.steps],
  ]);
  const folders = group.flatMap((u) => (u.folder === undefined ? [] : [`"${u.folder}"`]));
  const header = [
    `Converted by flowrun convert postman from the collection "${c.name}"${
      folders.length > 0
        ? `, ${folders.length === 1 ? "folder" : "folders"} ${folders.join(", ")}`
        : ""
    }.`,
    "Comments above a step name its folder path and any script line left untranslated.",
  ];
  return {
    out: { path: file, text: withAnchors(toYaml(header, hideLiterals(root, b.shared.vars))) },
    flow: { file, name, steps: b.steps.length, folders: group.map((u) => u.folder ?? "") },
  };
}

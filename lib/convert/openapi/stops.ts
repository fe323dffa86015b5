/**
 * Operations that stop the server the suite runs against (WireMock's `POST
 * /__admin/shutdown`, "Shutdown the WireMock server"). A suite's flows run
 * at once, so such a step anywhere stops the steps of every other flow
 * (connection refused), and the next run finds no server: the converter
 * leaves them out, names them in the flow of their tag and in the summary,
 * and the user runs them by hand.
 *
 * The document says so only in words and in its path: its summary,
 * description or `operationId` names a verb of stopping with the server as
 * its object ("Shutdown the WireMock server", "Stops the service"); or its
 * path ends in the act alone (`/actuator/shutdown`, `/restart`, `/exit`),
 * naming no resource, so what it stops is the API's own process (Spring
 * Boot's actuator, as springdoc publishes it, says only "Actuator web
 * endpoint 'shutdown'"), unless its words name something else that is
 * stopped (Signal K's `PUT /course/restart`, "Restart course
 * calculations."). Only an operation that acts (no GET: "the shutdown
 * policy") with no path parameter counts: `POST /servers/{id}/shutdown`
 * (Hetzner's) stops a resource the API manages, which a suite may create
 * and stop like any other; `/recordings/stop` and `/jobs/stop` stop
 * something of the server's, not the server. A switch into maintenance or
 * read-only mode (Unleash's `POST /api/admin/maintenance {"enabled": true}`,
 * its path ending in the mode alone) counts too: the server then refuses
 * every change (503) of the flows beside it and after it. So does a switch that turns the
 * server's authentication off (etcd's `POST /v3/auth/disable`, "AuthDisable disables
 * authentication."): the server then refuses the credential every other step sends ("invalid
 * auth token", 401), in the flows beside it and after it; turning it on, or off for one user
 * ("Disables the authentication of one user"), is no such switch. The words
 * may also name what the server runs in, the container or host ("Restart
 * the host server.", Homebridge UI's "Restart the `homebridge/homebridge`
 * docker image container.", which runs `sudo kill 1`), or the API itself by
 * the name the document is titled with and nothing more ("Trigger a hard
 * restart of Homebridge (use after restoring backup).", in "Homebridge UI
 * API Reference"). An update or install of the API itself so named
 * replaces its code, from the network, and restarts it ("Trigger an update
 * for Homebridge, homebridge-config-ui-x, or any plugin."): left out too,
 * whatever its path names.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import { verbItem } from "./verb_segments.ts";

const STOP = /\b(?:shut\s*down|shutdown|stops?|terminates?|halts?|kills?|restarts?|reboots?)\b/i;
// What the server runs as or in: its process, and the container or host (a restart of either
// stops it too). A few words may come between (`the \`homebridge/homebridge\` docker image
// container`).
const SERVER =
  /\b(?:(?:the|this)\s+(?:\S+\s+){0,3}(?:server|service|instance|process|application|app|container|host|machine)|server)\b/i;
/** Stopping, or replacing the server's own code (an update or install of the API itself). */
const REPLACE = new RegExp(`${STOP.source}|\\b(?:updates?|upgrades?|install(?:s|ation)?)\\b`, "i");
/** A last path segment that is the act alone. */
const ACT = /^(?:shutdown|shut-down|restart|reboot|halt|exit|maintenance|read-?only)$/i;
const READS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
/** Words of a switch that turns the server's authentication off, as a whole. */
const AUTH_OFF =
  /\b(?:disables?|turns?\s+off|switch(?:es)?\s+off)\s+(?:the\s+)?(?:authentication|auth|security)\s*(?:[.!]|$)/i;

/** What tells the API itself from what it holds: its title, and its own resources' names. */
export interface StopsAbout {
  /** The document's `info.title`. */
  title?: string;
  /** {@linkcode ownResources}: a title word that is one names an item of the API, not the API. */
  resources?: ReadonlySet<string>;
}

/**
 * The names of what the API holds, lower case and singular: its schemas' names, each path
 * segment an item's `{parameter}` follows (`/todos/{id}`: `todo`), and the noun before a verb
 * segment the item's parameter follows (`/jobs/update/{id}`: `job`, `verb_segments.ts`; a job
 * board titled "Job Board" had its "Update Job" left out as an update of the API itself).
 *
 * @example
 * ```ts
 * import { ownResources } from "./stops.ts";
 * const names = ownResources({ paths: { "/v1/todos/{id}": {}, "/v1/status/app": {},
 *   "/jobs/get/{id}": {} }, components: { schemas: { User: {} } } });
 * if ([...names].sort().join() !== "get,job,todo,user") throw new Error([...names].join());
 * ```
 */
export function ownResources(document: Record<string, unknown>): Set<string> {
  const keys = (node: unknown) =>
    node !== null && typeof node === "object" ? Object.keys(node as object) : [];
  const components = (document.components ?? {}) as Record<string, unknown>;
  const names = [...keys(components.schemas), ...keys(document.definitions)];
  for (const path of keys(document.paths)) {
    const segments = path.split("/");
    segments.forEach((s, i) => {
      if (i > 0 && segments[i - 1] !== "" && /^\{[^}]+\}$/.test(s)) names.push(segments[i - 1]);
    });
    const collection = verbItem(path)?.collection;
    if (collection !== undefined) names.push(collection.split("/").at(-1)!);
  }
  return new Set(names.map(singular).filter((n) => !n.includes("{")));
}

function singular(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith("ies") ? `${lower.slice(0, -3)}y` : lower.replace(/(?<=[^s])s$/, "");
}

/**
 * Whether an operation stops (or restarts) the server itself.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { stopsServer } from "./stops.ts";
 * const ops = operationsOf({ paths: {
 *   "/__admin/shutdown": { post: { summary: "Shutdown the WireMock server" } },
 *   "/actuator/restart": { post: { summary: "Actuator web endpoint 'restart'" } },
 *   "/__admin/recordings/stop": { post: { summary: "Stop recording" } },
 *   "/servers/{id}/actions/shutdown": { post: { summary: "Shutdown a server" } },
 *   "/api/admin/maintenance": { get: {}, post: { summary: "Enabled/disabled maintenance mode" } },
 *   "/v3/auth/disable": { post: { summary: "AuthDisable disables authentication." } },
 *   "/v3/auth/user/off": { post: { summary: "Disables the authentication of one user." } },
 * } });
 * if (ops.map((op) => stopsServer(op)).join() !== "true,true,false,false,false,true,true,false") throw new Error();
 * ```
 */
export function stopsServer(op: OpenApiOperation, about: StopsAbout = {}): boolean {
  if (READS.has(op.method)) return false;
  // The API itself, named by its title, whatever its path names (`/plugins/update/{name}`).
  const { title = "", resources = new Set<string>() } = about;
  if (objectsOf(op, REPLACE).some((o) => namesApi(o, title, resources))) return true;
  if (op.template.includes("{")) return false;
  const objects = objectsOf(op, STOP);
  if (objects.some((o) => SERVER.test(o))) return true;
  const words = [op.node.summary, op.node.description].filter((w) => typeof w === "string");
  if (words.some((w) => AUTH_OFF.test(String(w)))) return true;
  // The path's act alone decides when the words name nothing else stopped ("Restart course
  // calculations." restarts something of the API's).
  const act = ACT.test(op.template.split("/").filter((s) => s !== "").at(-1) ?? "");
  return act && !objects.some((o) => /[a-z]{3,}/i.test(o));
}

/** What each sentence of the words says is acted on by `verb`: the words after it. */
function objectsOf(op: OpenApiOperation, verb: RegExp): string[] {
  return [op.node.summary, op.node.description, op.node.operationId]
    .filter((w): w is string => typeof w === "string")
    // `shutdownServer` → `shutdown Server`.
    .map((w) => w.replace(/([a-z])([A-Z])/g, "$1 $2"))
    .flatMap((w) => w.split(/[.!?](?:\s|$)/))
    .flatMap((w) => {
      const found = verb.exec(w);
      return found === null ? [] : [w.slice(found.index + found[0].length)];
    });
}

/**
 * Whether the object of a stop or an update (`of Homebridge (use after restoring backup)`, `for
 * Homebridge, homebridge-config-ui-x, or any plugin`) first names the API itself: the first words
 * of the document's title, and nothing else, once an aside in parentheses, a leading `of`, `for`
 * or `the`, and what a list names after its first are dropped ("course calculations" is no
 * "Course API", "the Homebridge UI settings" no "Homebridge UI API Reference").
 */
function namesApi(object: string, title: string, resources: ReadonlySet<string>): boolean {
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [];
  const first = object.replace(/\([^)]*\)/g, " ").split(/,|\b(?:or|and)\b/)[0];
  const named = words(first);
  while (["of", "for", "the"].includes(named[0] ?? "")) named.shift();
  const titled = words(title);
  // "Update todo" in "Todo API" updates one of its todos.
  if (named.some((w) => resources.has(singular(w)))) return false;
  return named.length > 0 && named.length <= titled.length &&
    named.every((w, i) => titled[i] === w);
}

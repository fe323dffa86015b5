/**
 * What grpc-js says of a proxy only in its log. A CONNECT the proxy refused
 * (407, 403…) or a proxy it could not reach fails the call with UNAVAILABLE
 * "No connection established. Last error: undefined", which names neither;
 * grpc-js writes the reason to the console instead, a line of its own among
 * flowrun's output. So once a call goes through a proxy, grpc-js's log is
 * listened to: its words about a proxy are kept (the latest per target and
 * per proxy, a bounded few) for the step's error, not printed; anything else
 * it logs is printed as grpc-js prints it.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import type { KindOutcome } from "../kind.ts";
import { joined, ownWords, type Told, told } from "../../model/told.ts";

const REFUSED = /^Failed to connect to (\S+) through proxy (\S+) with status (\d+)/;
const UNREACHABLE = /^Failed to connect to proxy (\S+) with error ([^]*)$/;
/** How many sentences are kept: one per target or proxy in trouble, so a few. */
const MAX_KEPT = 64;

/** The proxy, the target, its status and grpc-js's error are values; the rest flowrun's words. */
const said = new Map<string, Told>();
let listening = false;

/**
 * Listens to grpc-js's log from now on (once per process).
 *
 * @example
 * ```ts
 * import { listenToProxyLog } from "./proxy_log.ts";
 * listenToProxyLog();
 * listenToProxyLog(); // the second time does nothing
 * ```
 */
export function listenToProxyLog(): void {
  if (listening) return;
  listening = true;
  const printed = (mark: string) => (message?: unknown, ...rest: unknown[]) =>
    console.error(`${mark} ${message}`, ...rest);
  grpc.setLogger({
    error: (message?: unknown, ...rest: unknown[]) => {
      if (typeof message !== "string" || !kept(message)) printed("E")(message, ...rest);
    },
    info: printed("I"),
    debug: printed("D"),
  });
}

/** Keeps a sentence about a proxy; whether `message` was one. */
function kept(message: string): boolean {
  const refused = REFUSED.exec(message);
  const unreachable = refused ? null : UNREACHABLE.exec(message);
  if (!refused && !unreachable) return false;
  if (said.size >= MAX_KEPT) said.delete(said.keys().next().value!);
  if (refused) {
    const [, target, proxy, status] = refused;
    said.set(target, told`the proxy ${proxy} answered CONNECT ${target} with status ${status}`);
  } else {
    const [, proxy, error] = unreachable!;
    said.set(proxy, told`the proxy ${proxy} could not be reached (${error.trim()})`);
  }
  return true;
}

/**
 * `outcome` with its network error saying what the proxy did, when grpc-js
 * said it for this target or proxy; the sentence is taken (a later attempt
 * needs its own).
 *
 * @example
 * ```ts
 * import { withProxyWords } from "./proxy_log.ts";
 * const request = { method: "GRPC", url: "grpc://h:1/p.S/M", headers: [] };
 * const error = { reason: "network", message: "p.S/M is unavailable (UNAVAILABLE): x." };
 * const same = withProxyWords({ request, error }, "http://127.0.0.1:3128", "h:1");
 * if (same.error?.message !== error.message) throw new Error("nothing was said of that proxy");
 * ```
 */
export function withProxyWords(
  outcome: KindOutcome,
  proxy: string,
  address: string,
): KindOutcome {
  if (outcome.error?.reason !== "network") return outcome;
  const key = said.has(address) ? address : proxyAddress(proxy);
  const sentence = key === undefined ? undefined : said.get(key);
  if (!sentence) return outcome;
  said.delete(key!);
  const what = calledWhat(outcome.error.message);
  return {
    ...outcome,
    error: {
      ...outcome.error,
      message: joined(what, ownWords(" is unavailable: "), sentence, ownWords(".")),
    },
  };
}

/**
 * What an UNAVAILABLE error was of: the method's name it begins with, flowrun's words (from the
 * flow's .proto or reflection) before any value; a message made as one text stays a value.
 */
function calledWhat(message: string | Told): Told {
  const head = / is unavailable \(UNAVAILABLE\)[^]*$/;
  if (typeof message === "string") return told`${message.replace(head, "")}`;
  return head.test(message.words[0]) ? ownWords(message.words[0].replace(head, "")) : message;
}

/** The proxy as grpc-js names it (`host:port`, port 80 when none), or undefined. */
function proxyAddress(proxy: string): string | undefined {
  if (!URL.canParse(proxy)) return undefined;
  const url = new URL(proxy);
  return `${url.hostname}:${url.port || "80"}`;
}

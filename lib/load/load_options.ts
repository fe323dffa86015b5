/**
 * What the caller of the loader gives it: the environment, run parameters
 * and setup outputs that references are checked against, and the readers of
 * the files a flow includes or sends.
 *
 * @module
 */
import type { Document, Node } from "yaml";
import type { Problem } from "../model/errors.ts";
import type { Flow } from "../model/flow.ts";
import type { FileRoots } from "../io/file_roots.ts";

/** What the loader checks references against. */
export interface LoadOptions {
  /** Reads an environment variable; unset when it returns `undefined`. Default: nothing is set. */
  env?: (name: string) => string | undefined;
  /** Run parameters (`--var NAME=value`): they override and add to flow vars. */
  params?: ReadonlyMap<string, string>;
  /** Report references to unset environment variables (default `true`). */
  checkEnv?: boolean;
  /**
   * Flow files may run programs (`bearer: {command: […]}`): the run's
   * `--allow-commands`. Default `false`: such a block is a load problem.
   */
  allowCommands?: boolean;
  /**
   * The outputs the run's setup flows hand out (`--setup`): `${setup.NAME}`
   * must name one. Unchecked when absent (a file validated on its own).
   */
  setup?: ReadonlySet<string>;
  /**
   * The folders the files a flow names (includes, check files, files it sends, data files)
   * must lie in (`--file-root`, else worked out from the run's paths: see
   * `io/file_roots.ts`); unchecked when absent.
   */
  fileRoots?: FileRoots;
  /**
   * What named this file, when the user did not give it as a flow (`an included file`, `the
   * auth file`): a file that does not parse as YAML, or whose top is not a map, may be anything
   * (a credentials file named by mistake or on purpose), so its problems name it and its
   * position but never quote its text.
   */
  foreign?: string;
  /**
   * Loads the flow file a step includes (`include: shared/login.yaml`),
   * given the path as written and the including file: the flow and its path
   * relative to the working directory, or why it cannot be included.
   * `loadFlows` (and so the CLI) provides it, with caching and cycle
   * detection; without it an include is a problem. Internal: not part of the stable API.
   * @ignore
   */
  include?: (path: string, from: string) => IncludeResolution;
  /**
   * Reads the check file a check group names (`checks: ../checks/article.yaml`),
   * given the path as written and the file that names it: the file parsed
   * (once however many lists use it), or why it cannot be used. `loadFlows`
   * provides it; without it such a group is a problem. Internal: not part of the stable API.
   * @ignore
   */
  checkFile?: (path: string, from: string) => CheckFileResolution;
  /**
   * Reads a file a flow sends (`body_file`, a multipart file) or checks with
   * (a schema, a PEM file), given the path as written, the flow file and the
   * most bytes it may hold: its bytes, or why it cannot be read with the
   * problem's code (`not-a-regular-file`, `input-too-large`, else
   * `file-read`). `loadFlows` provides it; without it such a flow is a
   * problem. Internal: not part of the stable API.
   * @ignore
   */
  readFile?: (
    path: string,
    from: string,
    limit?: number,
  ) => { bytes: Uint8Array<ArrayBuffer> } | { message: string; code?: string };
}

/** A flow file an include names: the loaded flow, or why it cannot be included. */
export type IncludeResolution =
  | { flow: Flow; file: string }
  | { code: string; message: string; hint: string; followOn?: boolean };

/** A check file as read and parsed once: its text, positions and document, or its YAML problems. */
export interface CheckFileRead {
  /** Its path relative to the working directory. */
  file: string;
  bytes: Uint8Array;
  text: string;
  lineStarts: readonly number[];
  /** Why its YAML cannot be read (then there is no `doc`). */
  problems: readonly Problem[];
  doc?: Document;
  /** Each alias node's anchor. */
  targets?: Map<Node, Node>;
}

/** A check file a group names: read, or why it cannot be used. */
export type CheckFileResolution =
  | CheckFileRead
  | { code: string; message: string; hint: string; followOn?: boolean };

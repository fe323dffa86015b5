/**
 * What the flows of one document share while they are written: the
 * document, its schemes, the base path, the placeholders and files to fill
 * in, and what the converter inferred (`flow.ts` writes each flow with it).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { AuthSchemes } from "./auth.ts";
import type { PlaceholderFile } from "./body.ts";
import type { Inferred } from "./prerequisites.ts";
import type { FlowOps } from "./second_signup.ts";

/** Something the user must fill in: where and what. */
export interface Placeholder {
  file: string;
  what: string;
}

/** What the flows of one document share. */
export interface Shared {
  doc: Node;
  auth: AuthSchemes;
  /** The first server's path, without a trailing slash: `/v1` or "". */
  basePath: string;
  /** The document the `openapi:` checks name, relative to the flows; none: no such checks. */
  documentRef?: string;
  placeholders: Placeholder[];
  files: PlaceholderFile[];
  /** Optional parameters left out, in all flows. */
  optional: number;
  /** Each path parameter's producer, and the login. */
  inferred: Inferred;
  /** The administrators' operations (`GET /users`), each with what says so (for_admins.ts). */
  admins?: Map<string, string>;
  /** The operations of the flow being written, set before each one (second_signup.ts). */
  flow?: FlowOps;
}

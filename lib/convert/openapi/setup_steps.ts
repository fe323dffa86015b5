/**
 * What a flow reads from the run's setup flow instead of its own steps (`sign_in_once.ts`): a
 * type of its own, so that `flow.ts` and the setup's builder need not import each other.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";
import type { OpenApiOperation } from "./operations.ts";

/** The steps a flow reads from the run's setup flow instead of its own (`sign_in_once.ts`). */
export interface SetupSteps {
  ops: ReadonlySet<OpenApiOperation>;
  /** The flow's name for the setup's step of an operation. */
  stepOf(op: OpenApiOperation): string;
  /** `${setup.NAME}` for a capture of such a step; none for a step of the flow's own. */
  capture(step: string, key: string, source: YNode): string | undefined;
  /** `${setup.NAME}` for a run value the setup made too. */
  shared(name: string): string | undefined;
  /** The cookies a step sends from the setup (a cookie session's). */
  cookies(op: OpenApiOperation): [string, string][];
  /** `${setup.NAME}` of the token cookie an unsafe step echoes (`xsrf_cookie.ts`); else none. */
  xsrf(op: OpenApiOperation): string | undefined;
}

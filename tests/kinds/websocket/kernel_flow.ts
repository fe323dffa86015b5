/**
 * The flow the kernel-like stand-in (kernel_stand_in.ts) is talked to with:
 * one step asking `info_request`, then sending `execute_request` (`1 + 1`)
 * once its turn came, and receiving until the answers came. Shared by the
 * step's tests, its HAR report's and the exported processor's, so all of
 * them hold the same conversation.
 */

/** The turn by the message it answers: the `info_reply`. */
export const AFTER_INFO_REPLY = `{ message: "$[?@.msg_type == 'info_reply']" }`;

/** Receiving until both answers of the cell came, in either order. */
export const BOTH_ANSWERS =
  `["$[?@.msg_type == 'execute_result']", "$[?@.msg_type == 'execute_reply']"]`;

/** The step's checks: upgraded, the cell's `2` and its `ok` received, stopped by `until`. */
const CHECKS = `    assert:
      status: 101
      json:
        - { path: "$.json.messages[?@.msg_type == 'execute_result'].data", equals: ["2"] }
        - { path: "$.json.messages[?@.msg_type == 'execute_reply'].status", equals: [ok] }
        - { path: $.json.stopped, equals: until }
`;

/**
 * The flow with the execute request sent `after` (YAML) and receiving
 * `until` (YAML), at `ws://${ENV.KERNEL}/channels`; with the step's checks
 * unless `checked` is false.
 */
export function kernelFlow(after: string, until: string, checked = true): string {
  return `name: kernel
steps:
  - name: cell
    websocket:
      url: ws://\${ENV.KERNEL}/channels
      send:
        - json: { msg_type: info_request }
        - json: { msg_type: execute_request, code: "1 + 1" }
          after: ${after}
      until: ${until}
      wait: 5s
${checked ? CHECKS : ""}`;
}

/**
 * How the tests of tests/real/ start Prometheus (Debian's `prometheus`
 * 2.42, Go): its classic web UI under `/classic/` over the JSON API under
 * `/api/v1/`. Every start is a fresh server on a free port of 127.0.0.1,
 * with its own throwaway TSDB, a configuration that scrapes itself every
 * 2 s and a rules file of one recording rule and one alert that always
 * fires; the admin API and the lifecycle endpoints (`/-/reload`) are on.
 *
 * @module
 */
import { debianMissing } from "./debian.ts";
import { freePort, type Launch } from "./servers.ts";

const PROMETHEUS = "/usr/bin/prometheus";

/**
 * Why the Prometheus tests cannot run here ("" when they can). With `CI`
 * set a missing server is an error.
 *
 * @example
 * ```ts
 * import { prometheusMissing } from "./prometheus.ts";
 * if (typeof prometheusMissing() !== "string") throw new Error();
 * ```
 */
export function prometheusMissing(): string {
  return debianMissing(PROMETHEUS, "prometheus");
}

/**
 * The configuration: scrape the server itself at `port`, evaluate `rules.yml`.
 *
 * @example
 * ```ts
 * import { prometheusConfig } from "./prometheus.ts";
 * if (!prometheusConfig(9999).includes('"127.0.0.1:9999"')) throw new Error();
 * ```
 */
export function prometheusConfig(port: number): string {
  return [
    "global:",
    "  scrape_interval: 2s",
    "  evaluation_interval: 2s",
    "rule_files:",
    "  - rules.yml",
    "scrape_configs:",
    "  - job_name: prometheus",
    "    static_configs:",
    `      - targets: ["127.0.0.1:${port}"]`,
    "",
  ].join("\n");
}

/** One recording rule and one alert that always fires, so the Rules and Alerts pages show both. */
const RULES = [
  "groups:",
  "  - name: flowrun",
  "    rules:",
  "      - record: job:up:sum",
  "        expr: sum by (job) (up)",
  "      - alert: AlwaysFiring",
  "        expr: vector(1)",
  "        labels:",
  "          severity: none",
  "        annotations:",
  "          summary: fires always",
  "",
].join("\n");

/**
 * A fresh server on 127.0.0.1, ready once `/-/ready` answers.
 *
 * @example
 * ```ts
 * import { prometheusLaunch } from "./prometheus.ts";
 * if (!prometheusLaunch().command.includes("--web.enable-lifecycle")) throw new Error();
 * ```
 */
export function prometheusLaunch(): Launch {
  const port = freePort();
  return {
    command: [
      PROMETHEUS,
      // Relative to its folder (its working directory), so no page shows a path of this machine.
      "--config.file=prometheus.yml",
      "--storage.tsdb.path=data",
      `--web.listen-address=127.0.0.1:${port}`,
      "--web.enable-admin-api",
      "--web.enable-lifecycle",
    ],
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/prometheus.yml`, prometheusConfig(port));
      await Deno.writeTextFile(`${dir}/rules.yml`, RULES);
    },
    origin: (out) =>
      out.includes("Server is ready to receive web requests")
        ? `http://127.0.0.1:${port}`
        : undefined,
    probe: "/-/ready",
    polls: 1200,
  };
}

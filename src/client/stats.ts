/** Attempts and outcomes of one endpoint, or of all of them. */
export interface EndpointStats {
  /** Attempts handed to the network. */
  sent: number;
  /** Attempts that were retries of an earlier failed attempt. */
  retried: number;
  /** Calls that ended in an error (after any retries). */
  failed: number;
}

export interface RequestStats extends EndpointStats {
  /** By `"METHOD /route/template"` (ids as `{id}`), e.g. `"GET /v1/search/contacts"`. */
  byEndpoint: Record<string, EndpointStats>;
}

export type StatsEvent = keyof EndpointStats;

/** Counts per endpoint and in total; `snapshot` is a copy the caller may keep. */
export function createStatsCounter(): {
  count(endpointKey: string, event: StatsEvent): void;
  snapshot(): RequestStats;
} {
  const total: EndpointStats = { sent: 0, retried: 0, failed: 0 };
  const byEndpoint = new Map<string, EndpointStats>();
  return {
    count(endpointKey, event) {
      let counts = byEndpoint.get(endpointKey);
      if (!counts) byEndpoint.set(endpointKey, (counts = { sent: 0, retried: 0, failed: 0 }));
      counts[event] += 1;
      total[event] += 1;
    },
    snapshot: () => ({
      ...total,
      byEndpoint: Object.fromEntries([...byEndpoint].map(([key, counts]) => [key, { ...counts }])),
    }),
  };
}

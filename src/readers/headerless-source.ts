import type { InputInfo, OpenedSource, SourceItem } from './types.js';

/** What a reader of records without a header line (JSON, NDJSON, vCard) hands back. */
export const headerlessSource = (
  info: InputInfo,
  items: AsyncIterable<SourceItem>,
  close: () => Promise<void>,
): OpenedSource => ({ info, header: undefined, rawHeader: undefined, headerIssues: [], items, close });

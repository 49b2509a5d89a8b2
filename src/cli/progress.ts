/** A one-line progress display on a terminal (stderr): phase, records, rate, and ETA when known. */
export class ProgressLine {
  private last = 0;
  private readonly started = Date.now();
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(phase: string, done: number, total?: number): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = Math.round(done / seconds);
    let text = `${phase.padEnd(5)} ${done.toLocaleString('en-US')}`;
    if (total !== undefined && total > 0) {
      const ratio = Math.min(done / total, 1);
      const width = 24;
      const filled = Math.round(ratio * width);
      const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
      text = `${phase.padEnd(5)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ETA ${eta}s`;
    }
    this.stream.write(`\r${text}  ${rate.toLocaleString('en-US')} rec/s\u001b[K`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\u001b[K');
    this.shown = false;
  }
}

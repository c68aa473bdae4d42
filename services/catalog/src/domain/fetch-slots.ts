/**
 * Reads of points of sale in flight in this replica: at most `max`, each holding at most the byte
 * budget. `tryTake` never waits (a caller queued here would hold the gateway's 20 s anyway).
 */
export class FetchSlots {
  private used = 0;
  constructor(readonly max: number) {}

  tryTake(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }

  release(): void {
    this.used = Math.max(0, this.used - 1);
  }

  get inFlight(): number {
    return this.used;
  }
}

/**
 * The barrier at the end of a phase: waits until every item of the run not yet ended has arrived,
 * then lets them go on in the order of their index (so that the next phase starts them in that
 * order).
 */
export class PhaseBarrier {
	private readonly waiting = new Map<number, () => void>();

	constructor(private readonly expected: () => number) {}

	async arrive(index: number): Promise<void> {
		const arrived = new Promise<void>((goOn) => this.waiting.set(index, goOn));
		this.releaseWhenComplete();
		await arrived;
	}

	releaseWhenComplete(): void {
		if (this.waiting.size === 0 || this.waiting.size < this.expected()) return;
		const indexes = [...this.waiting.keys()].sort((left, right) => left - right);
		for (const index of indexes) this.waiting.get(index)!();
		this.waiting.clear();
	}
}

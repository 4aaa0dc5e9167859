export type LineCounts = { added: number, removed: number, };

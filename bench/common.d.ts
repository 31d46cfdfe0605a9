// Types for the parts of bench/common.js that tests import (the rest is used by bench scripts only).

/** A support session of `size` events in the refund vocabulary (refunds, lookups, emails), its blocks from `k0`. */
export function refundEvents(
  size: number,
  k0?: number,
): { id: string; actor: string; action: string; content: string; metadata?: Record<string, string> }[];

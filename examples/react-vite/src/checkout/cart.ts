// Cart arithmetic in integer cents, so totals never pick up floating-point pennies.

/** One line of the cart. */
export interface CartLine {
  id: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
}

/** Orders at or above this subtotal ship free. */
export const FREE_SHIPPING_FROM_CENTS = 5000;
/** Shipping below the free-shipping threshold. */
export const SHIPPING_CENTS = 490;

/** The cart the example page starts with. */
export const SAMPLE_CART: readonly CartLine[] = [
  { id: "mug", name: "Enamel mug", unitPriceCents: 1450, quantity: 2 },
  { id: "beans", name: "Coffee beans, 250 g", unitPriceCents: 990, quantity: 1 },
];

/** Sum of price × quantity. */
export function subtotalCents(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
}

/** Shipping for a subtotal: free from the threshold up, and for an empty cart. */
export function shippingCents(subtotal: number): number {
  return subtotal === 0 || subtotal >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;
}

/** Subtotal plus shipping. */
export function totalCents(lines: readonly CartLine[]): number {
  const subtotal = subtotalCents(lines);
  return subtotal + shippingCents(subtotal);
}

/** `€12.34` (the example shop sells in euros). */
export function formatCents(cents: number): string {
  return `€${(cents / 100).toFixed(2)}`;
}

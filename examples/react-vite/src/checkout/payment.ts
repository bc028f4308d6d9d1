// The payment card details and their validation, kept apart from the form so they are tested
// directly. The values are private: the form marks each field for the Test Kit's `redact` and
// with its `cc-*` autocomplete token, so A3S Test never writes them anywhere.

/** What the payment form collects. */
export interface PaymentDetails {
  cardNumber: string;
  expiry: string;
  securityCode: string;
}

/** Empty payment details. */
export const EMPTY_PAYMENT: PaymentDetails = { cardNumber: "", expiry: "", securityCode: "" };

/** Field → message for each invalid field; empty when the card can pay. */
export type PaymentErrors = Partial<Record<keyof PaymentDetails, string>>;

/** A card number: 13 to 19 digits, spaces allowed between them. */
const CARD_NUMBER = /^\d(?: ?\d){12,18}$/;
/** An expiry month and year: `MM/YY`. */
const EXPIRY = /^(0[1-9]|1[0-2])\/\d{2}$/;
/** A security code: 3 or 4 digits. */
const SECURITY_CODE = /^\d{3,4}$/;

/** Checks every field's shape (the payment provider checks the card itself). */
export function validatePayment(payment: PaymentDetails): PaymentErrors {
  const errors: PaymentErrors = {};
  if (!CARD_NUMBER.test(payment.cardNumber.trim())) errors.cardNumber = "Enter the 13 to 19 digits of your card";
  if (!EXPIRY.test(payment.expiry.trim())) errors.expiry = "Enter the expiry as MM/YY";
  if (!SECURITY_CODE.test(payment.securityCode.trim())) errors.securityCode = "Enter the 3 or 4 digit code";
  return errors;
}

/** Whether the payment details have no errors. */
export function isPayable(payment: PaymentDetails): boolean {
  return Object.keys(validatePayment(payment)).length === 0;
}

import { describe, expect, it } from "vitest";
import { EMPTY_PAYMENT, isPayable, validatePayment } from "./payment";

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/30", securityCode: "123" };

describe("payment validation", () => {
  it("asks for every field of empty details", () => {
    expect(Object.keys(validatePayment(EMPTY_PAYMENT)).sort()).toEqual(["cardNumber", "expiry", "securityCode"]);
  });

  it("accepts a card number with or without spaces, MM/YY and a 3 or 4 digit code", () => {
    expect(isPayable(CARD)).toBe(true);
    expect(isPayable({ ...CARD, cardNumber: "4242424242424242", securityCode: "1234" })).toBe(true);
  });

  it("refuses short numbers, impossible months and letters", () => {
    expect(validatePayment({ ...CARD, cardNumber: "4242 4242" }).cardNumber).toBe("Enter the 13 to 19 digits of your card");
    expect(validatePayment({ ...CARD, expiry: "13/30" }).expiry).toBe("Enter the expiry as MM/YY");
    expect(validatePayment({ ...CARD, securityCode: "12a" }).securityCode).toBe("Enter the 3 or 4 digit code");
  });
});

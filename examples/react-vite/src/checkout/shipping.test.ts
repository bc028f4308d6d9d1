import { describe, expect, it } from "vitest";
import { EMPTY_ADDRESS, isShippable, validateAddress } from "./shipping";

const ADA = { name: "Ada Lovelace", street: "1 Analytical Row", city: "London", postcode: "10115" };

describe("address validation", () => {
  it("asks for every field of an empty address", () => {
    expect(Object.keys(validateAddress(EMPTY_ADDRESS)).sort()).toEqual(["city", "name", "postcode", "street"]);
  });

  it("accepts a complete address with a 4 or 5 digit postcode", () => {
    expect(isShippable(ADA)).toBe(true);
    expect(isShippable({ ...ADA, postcode: "1010" })).toBe(true);
  });

  it("refuses other postcodes and blank names", () => {
    expect(validateAddress({ ...ADA, postcode: "10A15" }).postcode).toBe("Enter a 4 or 5 digit postcode");
    expect(validateAddress({ ...ADA, name: "   " }).name).toBe("Enter your name");
  });
});

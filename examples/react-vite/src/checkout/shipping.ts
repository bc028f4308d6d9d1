// The shipping address and its validation, kept apart from the form so it is tested directly.

/** What the shipping form collects. */
export interface ShippingAddress {
  name: string;
  street: string;
  city: string;
  postcode: string;
}

/** An empty address. */
export const EMPTY_ADDRESS: ShippingAddress = { name: "", street: "", city: "", postcode: "" };

/** Field → message for each invalid field; empty when the address can ship. */
export type AddressErrors = Partial<Record<keyof ShippingAddress, string>>;

/** Checks every field; a postcode is 4 or 5 digits. */
export function validateAddress(address: ShippingAddress): AddressErrors {
  const errors: AddressErrors = {};
  if (address.name.trim() === "") errors.name = "Enter your name";
  if (address.street.trim() === "") errors.street = "Enter your street and number";
  if (address.city.trim() === "") errors.city = "Enter your city";
  if (!/^\d{4,5}$/.test(address.postcode.trim())) errors.postcode = "Enter a 4 or 5 digit postcode";
  return errors;
}

/** Whether the address has no errors. */
export function isShippable(address: ShippingAddress): boolean {
  return Object.keys(validateAddress(address)).length === 0;
}

// The shipping address fields. Errors show once a field has been left, not while typing. The
// values are private (the `address-field` class the page's Test Kit `redact` names).
import { useState } from "react";
import { A3STestBoundary } from "@a3s-lab/testkit/react";
import { TextField } from "./TextField";
import { validateAddress, type ShippingAddress } from "./shipping";

export interface ShippingFormProps {
  value: ShippingAddress;
  onChange: (next: ShippingAddress) => void;
}

const FIELDS: { key: keyof ShippingAddress; label: string; autoComplete: string }[] = [
  { key: "name", label: "Full name", autoComplete: "name" },
  { key: "street", label: "Street", autoComplete: "address-line1" },
  { key: "city", label: "City", autoComplete: "address-level2" },
  { key: "postcode", label: "Postcode", autoComplete: "postal-code" },
];

export function ShippingForm({ value, onChange }: ShippingFormProps) {
  const [touched, setTouched] = useState<ReadonlySet<keyof ShippingAddress>>(new Set());
  const errors = validateAddress(value);
  return (
    <A3STestBoundary id="shipping-form" name="ShippingForm" source={{ file: "src/checkout/ShippingForm.tsx" }}>
      <fieldset className="card">
        <legend>Shipping address</legend>
        {FIELDS.map(({ key, label, autoComplete }) => {
          const error = touched.has(key) ? errors[key] : undefined;
          const id = `shipping-${key}`;
          return (
            <TextField
              key={key}
              id={id}
              label={label}
              className="address-field"
              name={key}
              autoComplete={autoComplete}
              value={value[key]}
              error={error}
              onChange={(text) => onChange({ ...value, [key]: text })}
              onBlur={() => setTouched((prev) => new Set(prev).add(key))}
            />
          );
        })}
      </fieldset>
    </A3STestBoundary>
  );
}

// The payment card fields. Each is private: a `cc-*` autocomplete token (A3S Test's own rule) and
// the `card-field` class the page's Test Kit `redact` names, so no value typed here is ever
// written by A3S Test — not in an observation, a failure message, a report or a screenshot.
import { useState } from "react";
import { A3STestBoundary } from "@a3s-lab/testkit/react";
import { TextField } from "./TextField";
import { validatePayment, type PaymentDetails } from "./payment";

export interface PaymentFormProps {
  value: PaymentDetails;
  onChange: (next: PaymentDetails) => void;
}

const FIELDS: { key: keyof PaymentDetails; label: string; autoComplete: string; placeholder: string }[] = [
  { key: "cardNumber", label: "Card number", autoComplete: "cc-number", placeholder: "1234 5678 9012 3456" },
  { key: "expiry", label: "Expiry (MM/YY)", autoComplete: "cc-exp", placeholder: "MM/YY" },
  { key: "securityCode", label: "Security code", autoComplete: "cc-csc", placeholder: "123" },
];

export function PaymentForm({ value, onChange }: PaymentFormProps) {
  const [touched, setTouched] = useState<ReadonlySet<keyof PaymentDetails>>(new Set());
  const errors = validatePayment(value);
  return (
    <A3STestBoundary id="payment-form" name="PaymentForm" source={{ file: "src/checkout/PaymentForm.tsx" }}>
      <fieldset className="card">
        <legend>Payment</legend>
        {FIELDS.map(({ key, label, autoComplete, placeholder }) => {
          const error = touched.has(key) ? errors[key] : undefined;
          const id = `payment-${key}`;
          return (
            <TextField
              key={key}
              id={id}
              label={label}
              className="card-field"
              inputMode="numeric"
              autoComplete={autoComplete}
              placeholder={placeholder}
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

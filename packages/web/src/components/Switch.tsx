interface Props {
  checked: boolean;
  onChange: (checked: boolean) => void;
  labelledBy: string;
}

/** An on/off switch: a real button with role=switch, so keyboards and screen readers work. */
export function Switch({ checked, onChange, labelledBy }: Props) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      className="switch"
      onClick={() => onChange(!checked)}
    >
      <span className="switch-knob" />
    </button>
  );
}

// Date-range presets.

export interface RangePreset {
  id: string;
  label: string;
  range: () => { from: string; to: string };
}

/** Chips that set a date range; the chip whose range is the current one is shown pressed. */
export function RangePresets({
  presets,
  from,
  to,
  label,
  onPick,
}: {
  presets: RangePreset[];
  from: string;
  to: string;
  label: string;
  onPick: (range: { from: string; to: string }) => void;
}) {
  const active = presets.find((p) => {
    const range = p.range();
    return range.from === from && range.to === to;
  });
  return (
    <div className="presets" role="group" aria-label={label}>
      {presets.map((p) => (
        <button
          key={p.id}
          type="button"
          className={`chip ${active?.id === p.id ? 'chip-active' : ''}`}
          aria-pressed={active?.id === p.id}
          onClick={() => onPick(p.range())}
        >
          {p.label}
        </button>
      ))}
    </div>
  );
}

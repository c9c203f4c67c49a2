// What guests need to know before they pay, in the activity form: where to meet (an address, a map link,
// coordinates), what the price includes and what to bring (one line each). Empty address: no meeting point.
import type { Activity } from '../api';
import { TextArea, TextField } from '../ui';

export type DetailsInput = { address: string; mapUrl: string; latitude: string; longitude: string; inclusions: string; whatToBring: string };

export const detailsInput = (activity: Activity | undefined): DetailsInput => ({
  address: activity?.MeetingPoint?.Address ?? '',
  mapUrl: activity?.MeetingPoint?.MapUrl ?? '',
  latitude: activity?.MeetingPoint?.Latitude?.toString() ?? '',
  longitude: activity?.MeetingPoint?.Longitude?.toString() ?? '',
  inclusions: (activity?.Inclusions ?? []).join('\n'),
  whatToBring: (activity?.WhatToBring ?? []).join('\n'),
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text.replace(',', '.')));

export function detailsOf(input: DetailsInput): Pick<Activity, 'MeetingPoint' | 'Inclusions' | 'WhatToBring'> {
  return {
    MeetingPoint:
      input.address.trim() === ''
        ? null
        : {
            Address: input.address.trim(),
            MapUrl: input.mapUrl.trim() || null,
            Latitude: numberOrNull(input.latitude),
            Longitude: numberOrNull(input.longitude),
          },
    Inclusions: lines(input.inclusions),
    WhatToBring: lines(input.whatToBring),
  };
}

export function ActivityDetailsFields({
  value,
  onChange,
  fieldError,
}: {
  value: DetailsInput;
  onChange: (value: DetailsInput) => void;
  fieldError: (field: string) => string | undefined;
}) {
  const set = (change: Partial<DetailsInput>) => onChange({ ...value, ...change });
  return (
    <fieldset className="fieldset span-2">
      <legend>What guests need to know</legend>
      <TextField
        label="Meeting point"
        maxLength={300}
        value={value.address}
        onChange={(e) => set({ address: e.target.value })}
        error={fieldError('MeetingPoint.Address') ?? fieldError('MeetingPoint')}
        hint="The address, as guests would type it into a map. Empty: none is shown."
        placeholder="Pier 3, Schiffbauerdamm, 10117 Berlin"
      />
      <TextField
        label="Map link (https)"
        type="url"
        maxLength={2048}
        value={value.mapUrl}
        onChange={(e) => set({ mapUrl: e.target.value })}
        error={fieldError('MeetingPoint.MapUrl')}
      />
      <div className="field-pair">
        <TextField
          label="Latitude"
          inputMode="decimal"
          value={value.latitude}
          onChange={(e) => set({ latitude: e.target.value })}
          error={fieldError('MeetingPoint.Latitude')}
        />
        <TextField
          label="Longitude"
          inputMode="decimal"
          value={value.longitude}
          onChange={(e) => set({ longitude: e.target.value })}
          error={fieldError('MeetingPoint.Longitude')}
        />
      </div>
      <TextArea
        label="Included (one per line)"
        rows={3}
        value={value.inclusions}
        onChange={(e) => set({ inclusions: e.target.value })}
        error={fieldError('Inclusions')}
      />
      <TextArea
        label="What to bring (one per line)"
        rows={3}
        value={value.whatToBring}
        onChange={(e) => set({ whatToBring: e.target.value })}
        error={fieldError('WhatToBring')}
      />
    </fieldset>
  );
}

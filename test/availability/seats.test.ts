import { describe, expect, it } from 'vitest';
import { scheduleStarts, seatsLeft } from '../../src/availability/seats.js';
import { addSeconds, asUnixMillis, asUnixSeconds, toMillis, toSeconds, unixNow } from '../../src/lib/clock.js';
import { timeslotShape } from '../../src/availability/creation.js';
import { ValidationFailed } from '../../src/http/errors.js';

describe('seatsLeft', () => {
  const now = asUnixSeconds(1_000_000);
  it('is capacity minus booked for a timeslot in the future', () => {
    expect(seatsLeft({ capacity: 10, booked: 3, startsAt: addSeconds(now, 1) }, now)).toBe(7);
  });
  it('is 0 from the second the timeslot starts', () => {
    expect(seatsLeft({ capacity: 10, booked: 0, startsAt: now }, now)).toBe(0);
    expect(seatsLeft({ capacity: 10, booked: 0, startsAt: addSeconds(now, -3600) }, now)).toBe(0);
  });
  it('never goes below 0', () => {
    expect(seatsLeft({ capacity: 2, booked: 5, startsAt: addSeconds(now, 60) }, now)).toBe(0);
  });
});

describe('scheduleStarts', () => {
  it('lists each chosen weekday at each time, in order, with the instant in the zone', () => {
    // 2030-01-07 is a Monday.
    const starts = scheduleStarts({ from: '2030-01-06', to: '2030-01-09', weekdays: [1, 3], times: ['14:00', '09:00'] }, 'UTC');
    expect(starts.map((s) => `${s.date} ${s.time}`)).toEqual(['2030-01-07 09:00', '2030-01-07 14:00', '2030-01-09 09:00', '2030-01-09 14:00']);
    expect(starts[0]!.startsAt).toBe(Date.UTC(2030, 0, 7, 9) / 1000);
  });

  it('skips a time the clocks jump over, and only on that day', () => {
    // Europe/Berlin springs forward at 02:00 on Sunday 2030-03-31.
    const starts = scheduleStarts({ from: '2030-03-30', to: '2030-04-01', weekdays: [1, 2, 3, 4, 5, 6, 7], times: ['02:30'] }, 'Europe/Berlin');
    expect(starts.map((s) => s.date)).toEqual(['2030-03-30', '2030-04-01']);
  });
});

describe('timeslotShape', () => {
  const fieldsOf = (body: object) => {
    try {
      timeslotShape({ Capacity: 5, ...body });
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      return (error as ValidationFailed).errors!.map((e) => e.field);
    }
  };

  it('recognises one timeslot and a schedule', () => {
    expect(timeslotShape({ Capacity: 5, Date: '2030-01-01', Time: '10:00' })).toEqual({ kind: 'single', date: '2030-01-01', time: '10:00' });
    expect(timeslotShape({ Capacity: 5, From: '2030-01-01', To: '2030-01-02', Weekdays: [1], Times: ['10:00'] }).kind).toBe('schedule');
  });

  it('names the missing fields of the shape the client meant, and refuses a mix', () => {
    expect(fieldsOf({})).toEqual(['Date', 'Time']);
    expect(fieldsOf({ Date: '2030-01-01' })).toEqual(['Time']);
    expect(fieldsOf({ From: '2030-01-01', Times: ['10:00'] })).toEqual(['To', 'Weekdays']);
    expect(fieldsOf({ Date: '2030-01-01', Time: '10:00', Weekdays: [1] })).toEqual(['Weekdays']);
  });
});

describe('unixNow', () => {
  it('rounds milliseconds down to whole seconds', () => {
    expect(unixNow(asUnixMillis(1_999))).toBe(1);
    expect(toSeconds(asUnixMillis(-1))).toBe(-1);
    expect(toMillis(asUnixSeconds(2))).toBe(2_000);
  });
});

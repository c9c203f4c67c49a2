// The demo operator's catalogue: what a reseller certifies against and a newcomer tries first. Timeslots
// are roomy where resellers book most (the OCTo validator reserves several tickets on the same departure
// again and again), and the ticket types show each rule: a child that needs an adult, an infant that
// takes no seat, a family ticket for four, a minimum of players, a student price.
import type { CreateTicketTypeBody } from '../catalog/tickets/schemas.js';
import type { MeetingPoint } from '../catalog/schemas.js';
import type { Scene } from './photos.js';

export interface DemoActivity {
  /** The illustration the demo shows as the activity's photo (src/demo/photos.ts). */
  scene: Scene;
  name: string;
  description: string;
  durationMinutes: number;
  timezone: string;
  currency: string;
  /** The price of the default type, Adult. */
  unitPrice: number;
  maxParticipants: number;
  openingHours?: true;
  times: string[];
  capacity: number;
  /** German name of the default type, Adult. */
  adultName: string;
  /** Changes to the default type, Adult. */
  adult?: Partial<CreateTicketTypeBody>;
  /** The other ticket types. */
  ticketTypes: CreateTicketTypeBody[];
  /** What guests need to know before they pay. */
  meetingPoint: MeetingPoint;
  inclusions: string[];
  whatToBring: string[];
}

const at = (Address: string, Latitude: number, Longitude: number): MeetingPoint => ({ Address, MapUrl: null, Latitude, Longitude });

const child = (price: number, ages: [number, number]): CreateTicketTypeBody => ({
  Type: 'child',
  Name: `Child (${ages[0]}-${ages[1]})`,
  Price: price,
  MinAge: ages[0],
  MaxAge: ages[1],
  Requires: 'adult',
  Translations: { de: { Name: `Kind (${ages[0]}-${ages[1]})` } },
});

const infant: CreateTicketTypeBody = {
  Type: 'infant',
  Name: 'Infant (under 4, on a lap)',
  Price: 0,
  MinAge: 0,
  MaxAge: 3,
  TakesSeat: false,
  MaxPerBooking: 2,
  Requires: 'adult',
  Translations: { de: { Name: 'Kleinkind (unter 4, auf dem Schoß)' } },
};

const family = (price: number): CreateTicketTypeBody => ({
  Type: 'family',
  Name: 'Family (2 adults, 2 children)',
  Price: price,
  People: 4,
  MaxPerBooking: 2,
  Translations: { de: { Name: 'Familie (2 Erwachsene, 2 Kinder)' } },
});

export const DEMO_ACTIVITIES: DemoActivity[] = [
  {
    name: 'Spree River Cruise',
    scene: { sky: [0x4a90d9, 0xbfe3f5], ground: [0x2f6f8f, 0x163a4f], sun: 0xfff3b0, alt: 'Illustration: a clear sky over the river' },
    description: 'Ninety minutes past the Reichstag, the Museum Island and the cathedral, with live commentary in German and English.',
    durationMinutes: 90,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    unitPrice: 1900,
    maxParticipants: 10,
    times: ['11:00', '14:00', '17:00'],
    capacity: 250,
    adultName: 'Erwachsene',
    ticketTypes: [child(1100, [4, 14]), infant, family(5200)],
    meetingPoint: at('Pier 3, Schiffbauerdamm, 10117 Berlin', 52.5214, 13.3859),
    inclusions: ['Live commentary in German and English', 'A seat on the open upper deck (first come, first served)'],
    whatToBring: ['A jacket: it is windy on the water'],
  },
  {
    name: 'Sunset Kayak Tour',
    scene: { sky: [0x3b2a63, 0xf28c4b], ground: [0xc4643a, 0x2a2440], sun: 0xffd27a, alt: 'Illustration: a sunset over calm water' },
    description: 'Two hours on the Spree at golden hour, with a guide and all equipment.',
    durationMinutes: 120,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    unitPrice: 4900,
    maxParticipants: 8,
    times: ['10:00', '18:30'],
    capacity: 30,
    adultName: 'Erwachsene',
    ticketTypes: [
      {
        Type: 'youth',
        Name: 'Youth (12-17)',
        Price: 3900,
        MinAge: 12,
        MaxAge: 17,
        Requires: 'adult',
        Translations: { de: { Name: 'Jugendliche (12-17)' } },
      },
    ],
    meetingPoint: at('Kayak landing, Holzmarktstraße 25, 10243 Berlin', 52.5115, 13.4255),
    inclusions: ['Kayak, paddle and life jacket', 'A dry bag for your phone', 'A certified guide'],
    whatToBring: ['Clothes that may get wet', 'Sunscreen', 'A towel'],
  },
  {
    name: 'Escape Room: The Vault',
    scene: { sky: [0x1b1f2a, 0x3a4150], ground: [0x5a4632, 0x2b2118], sun: 0xe8c35a, alt: 'Illustration: a dim vault with a brass lamp' },
    description: 'Crack the bank vault in 60 minutes. For 2 to 6 players.',
    durationMinutes: 60,
    timezone: 'America/New_York',
    currency: 'USD',
    unitPrice: 3500,
    maxParticipants: 6,
    times: ['12:00', '15:00', '19:00'],
    capacity: 6,
    adultName: 'Spieler',
    adult: { Name: 'Player', MinPerBooking: 2 },
    ticketTypes: [],
    meetingPoint: at('The Vault, 21 West 46th Street, New York, NY 10036', 40.7566, -73.9803),
    inclusions: ['60 minutes in the room', 'A team photo'],
    whatToBring: ['Nothing: lockers for your bags are on site'],
  },
  {
    name: 'Pottery Wheel Class',
    scene: { sky: [0xf3e3cf, 0xe2c4a3], ground: [0xb07a4f, 0x7a4e2e], sun: 0xffffff, alt: 'Illustration: a warm studio over clay-coloured ground' },
    description: 'A beginner class at the wheel; your bowl is fired and ready a week later.',
    durationMinutes: 150,
    timezone: 'Asia/Tokyo',
    currency: 'JPY',
    unitPrice: 6500,
    maxParticipants: 4,
    times: ['14:00'],
    capacity: 10,
    adultName: 'Erwachsene',
    ticketTypes: [{ Type: 'student', Name: 'Student (with ID)', Price: 4500, Translations: { de: { Name: 'Studierende (mit Ausweis)' } } }],
    meetingPoint: at('Studio Tsuchi, 2-14-5 Yanaka, Taito-ku, Tokyo', 35.7251, 139.7671),
    inclusions: ['Clay, glaze and the firing', 'An apron'],
    whatToBring: ['Short fingernails make the wheel easier', 'Your student ID for a student ticket'],
  },
  {
    name: 'Skyline Observation Deck',
    scene: { sky: [0x0f3c78, 0x8fc3ea], ground: [0x4a5566, 0x1e2633], sun: 0xfff8d6, alt: 'Illustration: a high view of the sky above the city' },
    description: 'The city from 200 metres up, open every day from 9 am to 10 pm: come any time, your ticket is for the day.',
    durationMinutes: 13 * 60,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    unitPrice: 2400,
    maxParticipants: 10,
    openingHours: true,
    times: ['09:00'],
    capacity: 1500,
    adultName: 'Erwachsene',
    ticketTypes: [
      child(1400, [4, 14]),
      infant,
      { Type: 'senior', Name: 'Senior (65+)', Price: 1900, MinAge: 65, MaxAge: 120, Translations: { de: { Name: 'Senioren (65+)' } } },
      family(6400),
    ],
    meetingPoint: at('Skyline Tower, Alexanderplatz 1, 10178 Berlin (entrance on the north side)', 52.5219, 13.4132),
    inclusions: ['The lift to the deck', 'Telescopes on the deck'],
    whatToBring: ['Your ticket on your phone or printed'],
  },
];

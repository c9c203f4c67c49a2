import { Type, type Static } from '@sinclair/typebox';
import { ROLES, PERMISSIONS } from '../access/permissions.js';
import { EmailAddress, RowId } from '../http/schemas.js';
import { MAX_PASSWORD_LENGTH } from './users/passwords.js';

const Role = Type.Unsafe<(typeof ROLES)[number]>({
  type: 'string',
  enum: [...ROLES],
  description:
    "owner (everything), manager (everything but users and keys), front-desk (bookings, point of sale, check-in, waitlists), guide (today's manifests and check-in)",
});
const Email = EmailAddress();
const Password = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH });
const Token = Type.String({ minLength: 20, maxLength: 100, description: 'The one-time token from the e-mailed link' });

export const StaffUser = Type.Object(
  {
    ID: Type.Integer(),
    Email: Type.String(),
    Name: Type.String(),
    Role,
    Status: Type.Unsafe<'invited' | 'active'>({
      type: 'string',
      enum: ['invited', 'active'],
      description: 'invited until the invitation is accepted',
    }),
    TwoFactor: Type.Boolean({ description: 'TOTP two-factor authentication is on' }),
    LockedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'Until when sign-in is refused after 5 wrong passwords or codes in a row; null when the account is not locked. Owners can lift it (POST /api/v2/admin/users/{ID}/unlock)',
    }),
    CreatedAt: Type.String({ format: 'date-time' }),
    BookingNotices: Type.Unsafe<'none' | 'each' | 'digest'>({
      type: 'string',
      enum: ['none', 'each', 'digest'],
      description: 'E-mails about bookings this user asked for: none, one per new, moved or cancelled booking (each), or a daily digest',
    }),
  },
  { $id: 'StaffUser' },
);
export type StaffUser = Static<typeof StaffUser>;

export const BookingNoticesBody = Type.Object(
  { BookingNotices: Type.Unsafe<'none' | 'each' | 'digest'>({ type: 'string', enum: ['none', 'each', 'digest'] }) },
  { additionalProperties: false },
);

export const StaffSession = Type.Object(
  {
    ID: Type.Integer(),
    CreatedAt: Type.String({ format: 'date-time' }),
    LastSeenAt: Type.String({ format: 'date-time' }),
    ExpiresAt: Type.String({ format: 'date-time' }),
    Address: Type.String(),
    UserAgent: Type.String(),
    Current: Type.Boolean({ description: 'The session making this request' }),
  },
  { $id: 'StaffSession' },
);

export const Me = Type.Object({
  User: StaffUser,
  Operator: Type.Object({ ID: Type.Integer(), Name: Type.String() }),
  Permissions: Type.Array(Type.Unsafe<(typeof PERMISSIONS)[number]>({ type: 'string', enum: [...PERMISSIONS] })),
  CsrfToken: Type.String({ description: 'Send it as X-CSRF-Token with every request that changes something' }),
});

export const SignInResult = Type.Object({
  Status: Type.Unsafe<'signed-in' | 'totp-required' | 'choose-operator'>({
    type: 'string',
    enum: ['signed-in', 'totp-required', 'choose-operator'],
    description:
      'signed-in (the session cookie is set), totp-required (send Challenge with a code to /sign-in/totp), choose-operator (the address has accounts with several operators: send OperatorID)',
  }),
  Me: Type.Optional(Me),
  Challenge: Type.Optional(Type.String({ description: 'For /api/v2/staff/sign-in/totp, valid 5 minutes' })),
  Operators: Type.Optional(Type.Array(Type.Object({ OperatorID: Type.Integer(), Name: Type.String() }))),
});

export const PasswordSignInBody = Type.Object({ Email, Password, OperatorID: Type.Optional(RowId('With accounts at several operators: which one')) });
export const TotpSignInBody = Type.Object({
  Challenge: Token,
  Code: Type.Optional(Type.String({ pattern: '^\\d{6}$', description: 'The 6-digit code of the authenticator app' })),
  RecoveryCode: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'One of the recovery codes, instead of Code' })),
});
export const EmailBody = Type.Object({ Email });
export const TokenBody = Type.Object({ Token });
export const CompleteResetBody = Type.Object({ Token, Password });
export const AcceptInvitationBody = Type.Object({ Token, Password, Name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });
export const ChangePasswordBody = Type.Object({ CurrentPassword: Password, NewPassword: Password });
export const PasswordBody = Type.Object({ Password });
export const TotpCodeBody = Type.Object({ Code: Type.String({ pattern: '^\\d{6}$' }) });
export const TotpEnrolment = Type.Object({
  Secret: Type.String({ description: 'Base32, for typing into the authenticator app' }),
  Uri: Type.String({ description: 'otpauth:// URI' }),
  QrSvg: Type.String({ description: 'The URI as a QR code (SVG)' }),
});
export const RecoveryCodes = Type.Object({ RecoveryCodes: Type.Array(Type.String(), { description: 'Shown only now; each works once' }) });

export const InviteBody = Type.Object({ Email, Name: Type.String({ minLength: 1, maxLength: 100 }), Role });
export const ChangeUserBody = Type.Object({ Role: Type.Optional(Role), Name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });
export const UserIdParams = Type.Object({ ID: RowId('The user ID') });
export const SessionIdParams = Type.Object({ ID: RowId('The session ID') });
export const UserSessionParams = Type.Object({ ID: RowId('The user ID'), SessionID: RowId('The session ID') });

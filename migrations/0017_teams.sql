CREATE TABLE `audit_log_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`orgId` integer,
	`subjectId` integer,
	`actorId` integer,
	`door` text NOT NULL,
	`credential` text,
	`ip` text,
	`requestId` text,
	`action` text NOT NULL,
	`target` text,
	`detail` text,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subjectId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade,
	FOREIGN KEY (`actorId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_org_idx` ON `audit_log_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `audit_subject_idx` ON `audit_log_table` (`subjectId`,`id`);--> statement-breakpoint
CREATE INDEX `audit_at_idx` ON `audit_log_table` (`at`);--> statement-breakpoint
CREATE TABLE `org_invitations_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`orgId` integer NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`tokenHash` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`invitedBy` integer,
	`acceptedBy` integer,
	`expiresAt` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`respondedAt` text,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invitedBy`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null,
	FOREIGN KEY (`acceptedBy`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `org_invitations_token_unique` ON `org_invitations_table` (`tokenHash`);--> statement-breakpoint
CREATE UNIQUE INDEX `org_invitations_one_pending` ON `org_invitations_table` (`orgId`,`email`) WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX `org_invitations_org_idx` ON `org_invitations_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `org_invitations_email_idx` ON `org_invitations_table` (`email`,`status`);--> statement-breakpoint
CREATE TABLE `org_members_table` (
	`orgId` integer NOT NULL,
	`userId` integer NOT NULL,
	`role` text NOT NULL,
	`joinedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`orgId`, `userId`),
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `org_members_user_idx` ON `org_members_table` (`userId`,`orgId`);--> statement-breakpoint
CREATE UNIQUE INDEX `org_members_one_owner` ON `org_members_table` (`orgId`) WHERE "role" = 'owner';--> statement-breakpoint
CREATE TABLE `orgs_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`transferTo` integer,
	`transferExpiresAt` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`transferTo`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null
);

CREATE TABLE `agent_sockets_table` (
	`userId` integer NOT NULL,
	`agent` text NOT NULL,
	`name` text NOT NULL,
	`openedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`userId`, `agent`, `name`)
);
--> statement-breakpoint
CREATE TABLE `used_tickets_table` (
	`id` text PRIMARY KEY NOT NULL,
	`expiresAt` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_tickets_expires_idx` ON `used_tickets_table` (`expiresAt`);
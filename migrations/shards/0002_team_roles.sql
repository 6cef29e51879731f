CREATE TABLE `team_roles_table` (
	`orgId` integer NOT NULL,
	`userId` integer NOT NULL,
	`role` text,
	`generation` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`orgId`, `userId`)
);
--> statement-breakpoint
CREATE INDEX `team_roles_user_idx` ON `team_roles_table` (`userId`);
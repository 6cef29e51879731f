CREATE TABLE `workspaces_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer,
	`orgId` integer,
	`shard` text NOT NULL,
	`state` text DEFAULT 'ready' NOT NULL,
	`targetShard` text,
	`version` integer DEFAULT 0 NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "workspaces_one_owner" CHECK(("userId" IS NULL) <> ("orgId" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_user_unique` ON `workspaces_table` (`userId`);--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_org_unique` ON `workspaces_table` (`orgId`);--> statement-breakpoint
CREATE INDEX `workspaces_shard_idx` ON `workspaces_table` (`shard`);--> statement-breakpoint
-- Workspaces made before shards stay in the directory (LEGACY_SHARD) until moved out.
INSERT INTO `workspaces_table` (`userId`, `shard`) SELECT `id`, 'DB' FROM `users_table`;--> statement-breakpoint
INSERT INTO `workspaces_table` (`orgId`, `shard`) SELECT `id`, 'DB' FROM `orgs_table`;

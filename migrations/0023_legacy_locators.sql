CREATE TABLE `legacy_locators_table` (
	`kind` text NOT NULL,
	`ref` text NOT NULL,
	`workspaceId` integer NOT NULL,
	PRIMARY KEY(`kind`, `ref`),
	FOREIGN KEY (`workspaceId`) REFERENCES `workspaces_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `legacy_locators_workspace_idx` ON `legacy_locators_table` (`workspaceId`);
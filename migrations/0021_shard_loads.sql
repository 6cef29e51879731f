-- Shard loads (issue 42): how many workspaces each data database holds, so a new one goes to the emptiest.
-- Hand-edited: drizzle-kit also wrote a rebuild of every data table here, to drop their foreign keys to
-- users and teams (the declarations in src/db/data-schema.ts have none, for the shards). Those rebuilds are
-- left out: the directory's legacy copies keep their foreign keys and triggers, and a rebuild would copy
-- every row of a large database in one migration. The snapshot records the declarations, so they are not
-- proposed again.
CREATE TABLE `shard_loads_table` (
	`shard` text PRIMARY KEY NOT NULL,
	`workspaces` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `shard_loads_table` (`shard`, `workspaces`) SELECT `shard`, count(*) FROM `workspaces_table` GROUP BY `shard`;--> statement-breakpoint
CREATE TRIGGER `shard_loads_after_insert` AFTER INSERT ON `workspaces_table` BEGIN
	INSERT INTO `shard_loads_table` (`shard`, `workspaces`) VALUES (NEW.`shard`, 1)
		ON CONFLICT (`shard`) DO UPDATE SET `workspaces` = `workspaces` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `shard_loads_after_delete` AFTER DELETE ON `workspaces_table` BEGIN
	UPDATE `shard_loads_table` SET `workspaces` = `workspaces` - 1 WHERE `shard` = OLD.`shard`;
END;--> statement-breakpoint
CREATE TRIGGER `shard_loads_after_move` AFTER UPDATE OF `shard` ON `workspaces_table` WHEN NEW.`shard` <> OLD.`shard` BEGIN
	UPDATE `shard_loads_table` SET `workspaces` = `workspaces` - 1 WHERE `shard` = OLD.`shard`;
	INSERT INTO `shard_loads_table` (`shard`, `workspaces`) VALUES (NEW.`shard`, 1)
		ON CONFLICT (`shard`) DO UPDATE SET `workspaces` = `workspaces` + 1;
END;

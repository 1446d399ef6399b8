/// The CareSyncStore module; its types live in the files beside this one.
public enum CareSyncStoreModule {}

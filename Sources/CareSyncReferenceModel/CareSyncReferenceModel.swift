/// The reference model of the sync rules in plain collections: the oracle the store tests compare against.
public enum CareSyncReferenceModelModule {}

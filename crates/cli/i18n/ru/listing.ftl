# listing

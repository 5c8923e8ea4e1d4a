#!/bin/bash
cd app-apple && FOR_TESTING=1 swift test
